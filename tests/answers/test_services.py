"""The answer service: one entry point; an answer is delivered even when its log cannot be written (an error)."""
import asyncio
import logging
import uuid

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import AnonymousUser

from answers import services
from answers.limits.slots import QuestionRefused, admitted
from answers.models import Conversation, QuestionLog
from answers.pipeline.events import AnswerDone
from answers.pipeline.followups import Resolution, Turn
from answers.present.api import AnswerSummary
from answers.services import Caller, ask
from answers.testing.scripted import ScriptedGenerator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"


async def answer(question: str, *, caller: Caller | None = None, **options) -> list:
    stream = await ask(caller=caller or Caller(), question=question, channel="api", **options)
    return [event async for event in stream]


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


def unstorable(*args, **kwargs):
    """A log_answer that fails as the database refuses a lone surrogate; the message holds one too."""
    raise UnicodeEncodeError("utf-8", "kept\ud800", 4, 5, "surrogates not allowed")


async def test_a_log_insert_that_fails_is_an_error_and_leaves_a_row_saying_so(corpus, caplog, monkeypatch):
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


async def test_an_answer_cut_off_whose_log_fails_leaves_a_row_saying_cancelled(corpus, monkeypatch):
    monkeypatch.setattr("answers.services.log_answer", unstorable)
    stream = await ask(caller=Caller(), question=TRASH_Q, channel="ws")

    async for _event in stream:
        break  # the caller went away after the first event
    await stream.events.aclose()

    row = await QuestionLog.objects.aget()
    assert (row.channel, row.status) == ("ws", "cancelled")
    assert row.error.startswith("The conversation log could not be written")


async def test_the_callers_slot_is_free_again_while_the_log_row_is_written(corpus, monkeypatch, settings):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 1
    settings.REDIS_URL = ""  # the in-process counters
    caller = Caller(session_key=f"slot-{uuid.uuid4()}")
    written = services.log_answer
    during_log: list[str] = []

    async def ask_again() -> None:
        async with admitted(caller.key):
            pass

    def log_asking_again(summary, **fields):
        """The log write, which first tries to admit the same caller again (an error here would be swallowed)."""
        try:
            async_to_sync(ask_again)()
            during_log.append("admitted")
        except QuestionRefused as refused:
            during_log.append(refused.message)
        return written(summary, **fields)

    monkeypatch.setattr("answers.services.log_answer", log_asking_again)
    events = await answer(TRASH_Q, caller=caller)

    assert events[-1].status == "answered"
    assert during_log == ["admitted"]
    assert (await QuestionLog.objects.aget()).session_key == caller.session_key


@pytest.mark.parametrize("who", ["signed in", "anonymous", "nobody"])
async def test_the_log_names_a_signed_in_caller_and_no_one_else(corpus, plain_user, who):
    user = {"signed in": plain_user, "anonymous": AnonymousUser(), "nobody": None}[who]
    await answer(TRASH_Q, caller=Caller(user, "session-1"))

    row = await QuestionLog.objects.select_related("user").aget()
    assert (row.user, row.session_key) == (plain_user if who == "signed in" else None, "session-1")


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


async def test_a_resolver_that_breaks_costs_nothing_but_the_rewrite(corpus, caplog):
    async def broken(question, history, config):
        raise IndexError("a resolver bug")

    events = await answer(TRASH_Q, history=(Turn("What is the trash?"),), resolve=broken)

    assert [e.kind for e in events][0] == "meta" and events[-1].status == "answered"
    assert "Resolving a follow-up failed" in caplog.text


async def test_a_rewrite_longer_than_a_question_may_be_is_not_used(corpus, settings):
    settings.RAG_MAX_QUESTION_CHARS = 60

    async def wordy(question, history, config):
        return Resolution(question + " about deleted files" * 5, True)

    events = await answer(TRASH_Q, history=(Turn("What is the trash?"),), resolve=wordy)

    assert not [e for e in events if e.kind == "resolved"] and events[-1].status == "answered"


async def last_event(stream) -> AnswerDone:
    return [event async for event in stream][-1]


async def test_answers_ending_together_are_each_logged_in_the_conversation_they_started(corpus):
    callers = [Caller(session_key=f"burst-{n}") for n in range(8)]

    streams = [await ask(caller=c, question=TRASH_Q, channel="ws", keep=True) for c in callers]
    ends = await asyncio.gather(*(last_event(stream) for stream in streams))  # all at once: their rows meet

    assert [end.status for end in ends] == ["answered"] * 8
    rows = [row async for row in QuestionLog.objects.select_related("conversation")]
    assert sorted(row.session_key for row in rows) == sorted(c.session_key for c in callers)
    assert all(row.conversation.session_key == row.session_key for row in rows)
    assert {row.conversation.key for row in rows} == {stream.conversation.key for stream in streams}


async def test_the_row_and_its_new_conversation_are_stored_before_the_end_of_the_answer_is_given(corpus):
    stream = await ask(caller=Caller(session_key="prompt"), question=TRASH_Q, channel="ws", keep=True)
    assert not await Conversation.objects.aexists()  # not stored before its first turn

    async for event in stream:
        if isinstance(event, AnswerDone):  # what the end marker (with the permalink) is sent for
            row = await QuestionLog.objects.select_related("conversation").aget(answer_key=stream.answer_key)
            assert row.conversation.key == stream.conversation.key


async def test_a_question_refused_by_the_limits_leaves_no_conversation(corpus, settings):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 1
    settings.REDIS_URL = ""  # the in-process counters
    caller = Caller(session_key=f"busy-{uuid.uuid4()}")
    admission = await sync_to_async(services.admission_reads)(caller, TRASH_Q, None, None, True)

    async with admitted(caller.key):  # the caller's one answer being written
        with pytest.raises(QuestionRefused):
            await ask(caller=caller, question=TRASH_Q, channel="ws", admission=admission)

    assert admission.started and not await Conversation.objects.aexists()


async def test_an_unstorable_row_of_a_batch_fails_alone_and_its_conversation_is_stored_with_its_failure(corpus):
    callers = [Caller(session_key=f"batch-{n}") for n in range(3)]
    started = [services.conversation_new(caller=c, question=f"question {n}") for n, c in enumerate(callers)]
    items = [
        (AnswerSummary(f"question {n}"), {"caller": c, "audiences": ("public",), "channel": "ws",
                                           "generator": "extractive", "conversation": started[n], "touch": False,
                                           "generation": {"unstorable": object()} if n == 1 else {}})
        for n, c in enumerate(callers)
    ]

    outcomes = await sync_to_async(services.log_answers)(items)
    await sync_to_async(services.log_failure)(
        items[1][0], caller=callers[1], channel="ws", generator="extractive", error="could not be written",
        conversation=started[1], touch=False,
    )

    assert outcomes[0] is None and outcomes[2] is None and isinstance(outcomes[1], TypeError)
    rows = [row async for row in QuestionLog.objects.select_related("conversation").order_by("question")]
    assert [(row.question, row.conversation.title, row.error) for row in rows] == [
        ("question 0", "question 0", ""), ("question 1", "question 1", "could not be written"),
        ("question 2", "question 2", ""),
    ]

