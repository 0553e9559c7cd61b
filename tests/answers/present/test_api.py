"""The /api/answer object and the event JSON: each citation and conflict side carries its support span and quote."""
import datetime as dt

from answers.pipeline.events import AnswerDone, AnswerRefused, ChunkRef, ConflictSide, SentenceVerified
from answers.pipeline.types import SupportSpan
from answers.present.api import AnswerSummary, event_json

QUOTE = "Express shipping takes 2 business days."
SPAN = SupportSpan(start=40, end=40 + len(QUOTE), sentences=(3,), quote=QUOTE)
CITED = ChunkRef(1, "shipping-v1-c01", "Shipping", dt.date(2025, 9, 15), span=SPAN)


def page(chunk_id: str) -> str:
    return f"/chunks/{chunk_id}/"


def test_a_sentence_event_gives_each_citation_its_span_and_quote():
    data = event_json(SentenceVerified("Express takes 2 business days.", (CITED,)), page)

    assert data["citations"] == [{
        "n": 1, "chunk_id": "shipping-v1-c01", "url": "/chunks/shipping-v1-c01/", "source_title": "Shipping",
        "source_updated_on": "2025-09-15", "span": {"start": 40, "end": 79, "sentences": [3]}, "quote": QUOTE,
    }]


def test_the_answer_object_carries_the_spans_of_its_sentences_citations():
    summary = AnswerSummary("How long does express take?")
    two = SupportSpan(0, 20, (1, 2), "One. Two sentences.")
    for event in (SentenceVerified("Express takes 2 business days.", (CITED, ChunkRef(2, "b-v1-c01", "B", None, two))),
                  AnswerDone("answered")):
        summary.add(event)

    citations = summary.to_json(page)["sentences"][0]["citations"]

    assert [(c["span"], c["quote"]) for c in citations] == [
        ({"start": 40, "end": 79, "sentences": [3]}, QUOTE),
        ({"start": 0, "end": 20, "sentences": [1, 2]}, "One. Two sentences."),
    ]


def test_a_citation_without_a_span_says_so_with_nulls():
    data = event_json(SentenceVerified("Thirty days.", (ChunkRef(1, "trash-v1-c01", "Trash", None),)), page)

    assert (data["citations"][0]["span"], data["citations"][0]["quote"]) == (None, None)


def test_a_conflict_side_carries_its_span_when_it_has_one():
    sides = (ConflictSide("The upload limit is 200 MB.", ChunkRef(1, "new-v1-c01", "New", None, span=SPAN)),
             ConflictSide("The upload limit is 100 MB.", ChunkRef(2, "old-v1-c01", "Old", None)))

    data = event_json(AnswerRefused("conflict", "The documents disagree.", sides), page)

    assert [(s["span"], s["quote"]) for s in data["sides"]] == [
        ({"start": 40, "end": 79, "sentences": [3]}, QUOTE), (None, None)
    ]
