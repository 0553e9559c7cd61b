"""Concurrent answers: per caller across all their sockets and workers, and per worker process."""
import asyncio
import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from answers.limits.slots import QuestionRefused, admitted, answering
from answers.routing import websocket_urls
from answers.testing.scripted import ScriptedGenerator
from rag_site.asgi import websocket_application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


async def test_one_caller_has_at_most_n_answers_at_once_and_slots_are_given_back(settings):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 2
    one, other = f"user:{uuid.uuid4()}", f"user:{uuid.uuid4()}"  # the cache may be a Redis shared with other runs

    async with answering(one), answering(one):
        with pytest.raises(QuestionRefused, match="already have 2 answers"):
            async with answering(one):
                pass
        async with answering(other):  # another caller is not affected
            pass
    async with answering(one), answering(one):
        pass


async def test_worker_cap_makes_a_question_wait_then_refuses_it(settings):
    settings.RAG_MAX_CONCURRENT_ANSWERS = 1
    settings.RAG_ANSWER_QUEUE_WAIT_S = 0.1

    async with answering(f"user:{uuid.uuid4()}"):
        with pytest.raises(QuestionRefused, match="busy"):
            async with answering(f"user:{uuid.uuid4()}"):
                pass


async def test_a_queue_wait_of_zero_still_takes_a_free_slot(settings):
    settings.RAG_ANSWER_QUEUE_WAIT_S = 0

    async with answering(f"user:{uuid.uuid4()}"):  # refused as "busy" when waiting was wait_for(..., 0)
        pass


async def test_many_sockets_of_one_user_share_the_concurrency_cap(corpus, settings, staff_user):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 1
    release = asyncio.Event()

    held = ScriptedGenerator(always=[release, "Deleted files are kept in the trash for 30 days [1]."],
                             name="held", regenerates=False)
    client = Client()
    await sync_to_async(client.force_login)(staff_user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    chat = websocket_application(websocket_urls(held))
    site = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    sockets = [WebsocketCommunicator(chat, "/ws/chat/", headers=site) for _ in range(2)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.send_to(text_data=json.dumps({"question": TRASH_Q}))
    replies = [await s.receive_from() for s in sockets]  # the turn, or the refusal

    assert sum("already have 1 answer being written" in r for r in replies) == 1
    release.set()
    for socket in sockets:
        await socket.disconnect()


async def test_admission_counts_the_rate_and_holds_the_callers_slot_in_one_step(settings):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 1
    settings.RAG_RATE_LIMIT = 2
    key, minute = f"user:{uuid.uuid4()}", 60.0 * 1000 + 1

    async with admitted(key, clock=lambda: minute):
        with pytest.raises(QuestionRefused, match="already have 1 answer being written"):
            async with admitted(key, clock=lambda: minute):
                pass
    with pytest.raises(QuestionRefused, match="You have asked 2 questions in the last minute") as refused:
        async with admitted(key, clock=lambda: minute):
            pass
    assert refused.value.retry_after_s == 59
    async with admitted(key, clock=lambda: minute + 60):  # the next minute, the slot given back
        pass
