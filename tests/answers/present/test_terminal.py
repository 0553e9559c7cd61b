"""`manage.py ask`'s lines: a sentence, then the words each citation stands on when they are not the sentence."""
from answers.present.terminal import terminal_lines


def answer(text: str, quote: str | None) -> dict:
    citation = {"n": 1, "chunk_id": "ship-v1-c01", "url": "/chunks/ship-v1-c01/", "source_title": "Shipping",
                "source_updated_on": None, "span": None if quote is None else {"start": 0, "end": 9, "sentences": [2]},
                "quote": quote}
    return {"refusal": None, "sentences": [{"text": text, "citations": [citation]}], "error": None,
            "sources": [citation], "generator": "claude", "status": "answered"}


def test_a_paraphrase_prints_the_words_its_citation_stands_on_on_one_plain_line():
    lines = list(terminal_lines(answer("Express takes two days.", "Express shipping\ntakes 2 business\x1b[31m days.")))

    assert lines[:2] == ["Express takes two days. [1]", '    [1] "Express shipping takes 2 business [31m days."']


def test_a_quoted_sentence_or_a_citation_without_a_span_prints_no_quote_line():
    quoted = list(terminal_lines(answer("Express takes 2 days.", "Express takes 2 days.")))
    spanless = list(terminal_lines(answer("Express takes 2 days.", None)))

    assert quoted[1] == spanless[1] == "\nSources:"
