"""A chunk's text as its page shows it: paragraphs of its stored sentences, code as code."""
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
