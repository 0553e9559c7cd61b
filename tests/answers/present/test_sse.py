"""Server-Sent Events: one frame per event a caller may see, none for what is for staff."""
import json

import pytest

from answers.pipeline.events import (
    AnswerDiagnosed,
    AnswerDone,
    ChunkRef,
    QuestionResolved,
    SentenceDropped,
    SentenceVerified,
)
from answers.pipeline.types import SupportSpan
from answers.present.sse import sse_frame


@pytest.mark.django_db
def test_a_verified_sentence_is_one_frame_with_its_citation_link():
    frame = sse_frame(SentenceVerified("Thirty days.", (ChunkRef(1, "trash-v1-c01", "Trash", None),)))

    kind, data = frame.removesuffix("\n\n").split("\n")
    assert kind == "event: sentence"
    assert json.loads(data.removeprefix("data: "))["citations"][0]["url"] == "/chunks/trash-v1-c01/"


@pytest.mark.parametrize(
    "event", [SentenceDropped("Ninety days.", ("the number 90 not in [1]",)), AnswerDiagnosed(gate="no hit")]
)
def test_staff_only_events_make_no_frame(event):
    assert sse_frame(event) == ""


def test_the_end_says_how_the_answer_ended():
    assert sse_frame(AnswerDone("refused")).startswith("event: done\ndata: {\"status\": \"refused\"")


@pytest.mark.django_db
def test_a_sentence_frame_carries_each_citations_span_and_quote():
    span = SupportSpan(12, 52, (2,), 'Deleted files are kept "30 days" </script>.')
    frame = sse_frame(SentenceVerified("Thirty days.", (ChunkRef(1, "trash-v1-c01", "Trash", None, span=span),)))

    _, data = frame.removesuffix("\n\n").split("\n")
    citation = json.loads(data.removeprefix("data: "))["citations"][0]
    assert citation["span"] == {"start": 12, "end": 52, "sentences": [2]}
    assert citation["quote"] == 'Deleted files are kept "30 days" </script>.'
def test_a_resolved_follow_up_is_a_frame_of_its_own_naming_both_questions():
    frame = sse_frame(QuestionResolved("and for digital goods?", "How long do refunds take for digital goods?"))

    kind, data = frame.removesuffix("\n\n").split("\n")
    assert kind == "event: resolved"
    assert json.loads(data.removeprefix("data: ")) == {
        "asked": "and for digital goods?", "resolved_question": "How long do refunds take for digital goods?"
    }
