"""The answer service: one entry point; an answer is delivered even when its log cannot be written (an error)."""
import logging

import pytest

from answers.models import QuestionLog
from answers.pipeline.events import AnswerDone
from answers.services import Caller, ask
from answers.testing.scripted import ScriptedGenerator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"


async def answer(question: str, **options) -> list:
    stream = await ask(caller=Caller(), question=question, channel="api", **options)
    return [event async for event in stream]


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


async def test_a_log_insert_that_fails_is_an_error_and_leaves_a_row_saying_so(corpus, caplog, monkeypatch):
    def unstorable(*args, **kwargs):  # as the database refuses a lone surrogate; the message holds one too
        raise UnicodeEncodeError("utf-8", "kept\ud800", 4, 5, "surrogates not allowed")

    monkeypatch.setattr("answers.services.log_answer", unstorable)
    events = await answer(TRASH_Q)

    assert isinstance(events[-1], AnswerDone) and events[-1].status == "answered"
    errors = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "answers.services"]
    assert len(errors) == 1 and "Could not write the conversation log" in errors[0].getMessage()
    assert "\\ud800" in errors[0].getMessage()  # named, escaped: the log line itself can be written
    errors[0].getMessage().encode("utf-8")
    row = await QuestionLog.objects.aget()
    assert (row.channel, row.status, row.question) == ("api", "answered", TRASH_Q)
    assert row.error.startswith("The conversation log could not be written: UnicodeEncodeError")


async def test_the_log_keeps_why_a_question_was_refused_before_generation(corpus):
    events = await answer("Who painted the Mona Lisa?")

    assert events[-1].status == "refused"
    row = await QuestionLog.objects.aget()
    assert row.refusal_kind == "no_material"
    assert row.diagnostics["gate"].startswith(("no hit", "coverage", "best score"))


async def test_the_log_keeps_what_broke_the_generator(corpus):
    broken = ScriptedGenerator([ZeroDivisionError("a generator bug")], name="broken", regenerates=False)
    events = await answer(TRASH_Q, make_generator=broken)

    assert events[-1].status == "failed"
    row = await QuestionLog.objects.aget()
    assert "ZeroDivisionError: a generator bug" in row.diagnostics["generator_error"]
    assert "ZeroDivisionError" not in row.error  # what callers were told stays the safe message
