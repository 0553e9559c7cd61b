"""The conversation log in the admin: a logged citation links to the sentences it stood on."""
from answers.admin import logged_citation_url


def test_a_logged_citation_links_to_its_highlighted_span():
    cited = {"n": 1, "chunk_id": "trash-v1-c02", "span": {"start": 0, "end": 48, "sentences": [2, 3]}, "quote": "…"}

    assert logged_citation_url(cited) == "/chunks/trash-v1-c02/?s=2-3#s-2"


def test_a_row_logged_before_spans_links_to_the_whole_passage():
    assert logged_citation_url({"n": 1, "chunk_id": "trash-v1-c02"}) == "/chunks/trash-v1-c02/"
    assert logged_citation_url({"statement": "x", "chunk_id": "trash-v1-c02", "span": None}) == "/chunks/trash-v1-c02/"
