"""`?s=` of a citation's link: written from a span's sentence numbers, read back only as integers within the chunk."""
import pytest

from corpus_admin.highlights import cited_url, highlighted_sentences


@pytest.mark.parametrize(
    ("sentences", "url"),
    [
        ((3,), "/chunks/faq-v1-c01/?s=3#s-3"),
        ((3, 4), "/chunks/faq-v1-c01/?s=3-4#s-3"),
        ((), "/chunks/faq-v1-c01/"),
    ],
)
def test_a_citation_links_to_its_sentences(sentences, url):
    assert cited_url("faq-v1-c01", sentences) == url


@pytest.mark.parametrize(
    ("value", "numbers"),
    [
        ("3", [3]),
        ("3-4", [3, 4]),
        ("1-3", [1, 2, 3]),
        ("10", [10]),
        (None, []),
        ("", []),
        ("0", []),
        ("-1", []),
        ("-1-2", []),
        ("11", []),  # beyond the chunk's 10 sentences
        ("9-11", []),
        ("4-3", []),  # backwards
        ("1-4", []),  # more than a few sentences
        ("1-999999999999", []),
        ("9" * 400, []),
        ("03", []),
        (" 3", []),
        ("3\n", []),
        ("3,4", []),
        ("3-", []),
        ("٣", []),  # an Arabic-Indic digit, which int() would read
        ("<script>alert(1)</script>", []),
        ("3-4#s-3", []),
    ],
)
def test_only_a_number_or_short_range_within_the_chunk_is_highlighted(value, numbers):
    assert list(highlighted_sentences(value, 10)) == numbers
