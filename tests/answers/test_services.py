"""The answer service: a question's answer is delivered even when its log cannot be written, and that is an error."""
import logging

import pytest

from answers.models import QuestionLog
from answers.pipeline.events import AnswerDone
from answers.services import answer_question
from answers.testing.scripted import ScriptedGenerator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# clean_question refuses this; a trusted internal caller (evaluation, a future surface) could still pass it on.
UNSTORABLE_Q = "How long are deleted files kept in the trash?\ud800"


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


async def test_a_log_insert_that_fails_is_an_error_and_leaves_a_row_saying_so(corpus, caplog):
    events = [event async for event in answer_question(question=UNSTORABLE_Q, user=None, channel="api")]

    assert isinstance(events[-1], AnswerDone) and events[-1].status == "answered"
    errors = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "answers.services"]
    assert len(errors) == 1 and "Could not write the conversation log" in errors[0].getMessage()
    assert "\\ud800" in errors[0].getMessage()  # named, escaped: the log line itself can be written
    errors[0].getMessage().encode("utf-8")
    row = await QuestionLog.objects.aget()
    assert (row.channel, row.status) == ("api", "answered")
    assert row.question == "How long are deleted files kept in the trash?\\ud800"
    assert row.error.startswith("The conversation log could not be written: UnicodeEncodeError")


async def test_the_log_keeps_why_a_question_was_refused_before_generation(corpus):
    events = [event async for event in answer_question(question="Who painted the Mona Lisa?", user=None, channel="api")]

    assert events[-1].status == "refused"
    row = await QuestionLog.objects.aget()
    assert row.refusal_kind == "no_material"
    assert row.diagnostics["gate"].startswith(("no hit", "coverage", "best score"))


async def test_the_log_keeps_what_broke_the_generator(corpus):
    broken = ScriptedGenerator([ZeroDivisionError("a generator bug")], name="broken", regenerates=False)
    events = [
        event async for event in answer_question(
            question="How long are deleted files kept in the trash?", user=None, channel="api", generator=broken
        )
    ]

    assert events[-1].status == "failed"
    row = await QuestionLog.objects.aget()
    assert "ZeroDivisionError: a generator bug" in row.diagnostics["generator_error"]
    assert "ZeroDivisionError" not in row.error  # what callers were told stays the safe message
