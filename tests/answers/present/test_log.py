"""The conversation-log row of an answer: what was shown and dropped, and the staff-only diagnostics."""
from answers.pipeline.events import AnswerDiagnosed, AnswerDone, AnswerRefused, SentenceDropped
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
