"""The conversation-log row of an answer: what was shown and dropped, and the staff-only diagnostics."""
from answers.pipeline.events import (
    AnswerDiagnosed,
    AnswerDone,
    AnswerRefused,
    ChunkRef,
    ConflictSide,
    SentenceDropped,
    SentenceVerified,
)
from answers.pipeline.types import SupportSpan
from answers.present.api import AnswerSummary
from answers.present.log import log_row


def test_a_refusal_before_generation_keeps_the_gates_reason():
    summary = AnswerSummary("Who painted the Mona Lisa?")
    for event in (AnswerRefused("no_material", "Nothing relevant."), AnswerDiagnosed(gate="no hit"),
                  AnswerDone("refused")):
        summary.add(event)

    row = log_row(summary)

    assert (row["status"], row["refusal_kind"], row["diagnostics"]) == ("refused", "no_material", {"gate": "no hit"})


def test_an_answer_cut_off_before_its_end_is_logged_as_cancelled_with_what_was_dropped():
    summary = AnswerSummary("How long?")
    summary.add(SentenceDropped("Ninety days.", ("the number 90 not in [1]",)))

    row = log_row(summary)

    assert row["status"] == "cancelled" and row["diagnostics"] == {}
    assert row["dropped"] == [{"text": "Ninety days.", "reasons": ["the number 90 not in [1]"]}]


def test_the_log_row_keeps_each_citations_span_and_quote_and_each_conflict_sides():
    span = SupportSpan(5, 30, (2, 3), "Refunds take 5 days. Always.")
    summary = AnswerSummary("How long do refunds take?")
    summary.add(SentenceVerified("Refunds take 5 days.", (ChunkRef(1, "refunds-v1-c01", "Refunds", None, span),)))
    summary.add(AnswerRefused("conflict", "They disagree.", (
        ConflictSide("Refunds take 5 days.", ChunkRef(1, "refunds-v1-c01", "Refunds", None, span)),
    )))

    row = log_row(summary)

    assert row["sentences"][0]["citations"] == [{
        "n": 1, "chunk_id": "refunds-v1-c01", "span": {"start": 5, "end": 30, "sentences": [2, 3]},
        "quote": "Refunds take 5 days. Always.",
    }]
    assert row["conflict"][0]["span"] == {"start": 5, "end": 30, "sentences": [2, 3]}
    assert row["conflict"][0]["quote"] == "Refunds take 5 days. Always."
