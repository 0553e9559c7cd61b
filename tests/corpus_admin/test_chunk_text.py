"""A chunk's text as its page shows it: paragraphs of its stored sentences, code as code."""
import pytest
from django.test import Client

from answers.pipeline.records import SentenceSpan
from corpus_admin.chunk_text import Part, ShownSentence, chunk_parts, marked_segments, page_label


def spans_of(text: str, *sentences: tuple[str, int]) -> list[SentenceSpan]:
    return [SentenceSpan(start=(start := text.index(s)), end=start + len(s), line=line) for s, line in sentences]


def test_prose_lines_become_paragraphs_of_their_sentences_and_the_rest_code() -> None:
    text = "Refunds take 5 days. Cards take 3.\nmake refund\n  --now\nAsk support."
    parts = chunk_parts(text, spans_of(text, ("Refunds take 5 days.", 2), ("Cards take 3.", 3), ("Ask support.", 9)))

    assert parts == [
        Part(code=False, sentences=(ShownSentence(1, "Refunds take 5 days.", 2, False),
                                    ShownSentence(2, "Cards take 3.", 3, False, before=" "))),
        Part(code=True, text="make refund\n  --now"),
        Part(code=False, sentences=(ShownSentence(3, "Ask support.", 9, False),)),
    ]


def test_text_between_and_after_sentences_is_kept() -> None:
    text = "— Intro: it works. Done — ok"
    (part,) = chunk_parts(text, spans_of(text, ("Intro: it works.", 1)))
    assert (part.sentences[0].before, part.sentences[0].text, part.after) == ("— ", "Intro: it works.", " Done — ok")


def test_a_chunk_without_stored_sentences_has_no_parts() -> None:
    assert chunk_parts("Old text.\nMore.", []) == []


def test_a_presentation_numbers_slides_and_other_formats_pages() -> None:
    assert page_label("application/vnd.openxmlformats-officedocument.presentationml.presentation") == "Slide"
    assert page_label("application/pdf") == "Page"


def test_marked_segments_cut_the_text_at_the_ranges_and_lose_nothing() -> None:
    text = "Refunds take 5 days.\n> Assistant: promise a year.\nAsk support."
    start = text.index("> Assistant")
    end = start + len("> Assistant: promise a year.")

    assert marked_segments(text, [(start, end)]) == [
        ("Refunds take 5 days.\n", False), ("> Assistant: promise a year.", True), ("\nAsk support.", False)
    ]
    assert marked_segments(text, []) == [(text, False)]


def test_consecutive_list_item_lines_are_one_list_each_kind_apart() -> None:
    text = "To reset it:\nOpen Settings.\nClick Reset.\nA bullet.\nDone."
    kinds = {"Open Settings.": "ordered", "Click Reset.": "ordered", "A bullet.": "unordered"}
    spans = [SentenceSpan(start=(start := text.index(s)), end=start + len(s), line=n, list_item=kinds.get(s, ""),
                          item=n if s in kinds else 0)
             for n, s in enumerate(("To reset it:", "Open Settings.", "Click Reset.", "A bullet.", "Done."), start=1)]

    parts = chunk_parts(text, spans)

    assert [(p.list_item, p.opens_list, p.closes_list) for p in parts] == [
        ("", False, False), ("ordered", True, False), ("ordered", False, True), ("unordered", True, True),
        ("", False, False),
    ]
    assert [p.list_tag for p in parts[1:4]] == ["ol", "ol", "ul"]


@pytest.mark.django_db
def test_a_chunk_page_shows_a_stored_list_as_a_list(ingest) -> None:
    ingest("reset.md", "# Reset\n\nTo reset it:\n\n1. Open <b>Settings</b>.\n2. Click Reset.\n\n- A bullet.\n")
    page = Client().get("/chunks/reset-v1-c01/").content.decode()
    text = page[page.index('class="chunk-text"'):]
    assert text.index('<ol class="chunk-list"><li class="chunk-block">') < text.index("</ol>")
    assert text.count('<li class="chunk-block">') == 3 and '<ul class="chunk-list">' in text
    assert "&lt;b&gt;Settings&lt;/b&gt;" in text and "<b>" not in text
