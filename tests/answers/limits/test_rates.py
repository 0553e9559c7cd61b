"""Question limits: per caller across sockets and workers, site-wide, and per worker process."""
import asyncio
import json
import random
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from answers.limits.rates import caller_key, rate_limit_hit
from answers.limits.slots import QuestionRefused, answering
from answers.testing.scripted import ScriptedGenerator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


def fresh_minute() -> float:
    """The start of a minute no other run used: counters live in a shared cache (Redis in CI) for two minutes."""
    return 60.0 * random.randrange(10**6, 10**9)


async def test_site_wide_rate_limit_refuses_once_the_site_is_over_it(settings):
    settings.RAG_SITE_RATE_LIMIT = 3
    minute = fresh_minute()
    decisions = [await rate_limit_hit(f"session:{n}", clock=lambda: minute) for n in range(4)]

    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert "site is answering as many questions" in decisions[-1].message and decisions[-1].retry_after_s == 60


async def test_a_caller_over_their_limit_does_not_use_up_the_sites(settings):
    settings.RAG_RATE_LIMIT, settings.RAG_SITE_RATE_LIMIT = 1, 3
    minute = fresh_minute()
    flooder = [await rate_limit_hit("session:flooder", clock=lambda: minute) for _ in range(5)]

    others = [await rate_limit_hit(f"session:other-{n}", clock=lambda: minute) for n in range(2)]

    assert [d.allowed for d in flooder] == [True, False, False, False, False]
    assert all(d.allowed for d in others)  # the site has counted 3: the flooder's first question and these two


async def test_caller_rate_limit_message_says_when_to_retry(settings):
    settings.RAG_RATE_LIMIT = 1
    now = fresh_minute() + 10

    await rate_limit_hit("user:7", clock=lambda: now)
    refused = await rate_limit_hit("user:7", clock=lambda: now)

    assert not refused.allowed and refused.retry_after_s == 50 and "try again in 50 seconds" in refused.message


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


async def test_many_sockets_of_one_user_share_the_concurrency_cap(corpus, settings, monkeypatch, staff_user):
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 1
    release = asyncio.Event()

    held = ScriptedGenerator(always=[release, "Deleted files are kept in the trash for 30 days [1]."],
                             name="held", regenerates=False)
    monkeypatch.setattr("answers.services.choose_generator", held)
    client = Client()
    await sync_to_async(client.force_login)(staff_user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    from rag_site.asgi import application

    site = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
    sockets = [WebsocketCommunicator(application, "/ws/chat/", headers=site) for _ in range(2)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.send_to(text_data=json.dumps({"question": TRASH_Q}))
    replies = [await s.receive_from() for s in sockets]  # the turn, or the refusal

    assert sum("already have 1 answer being written" in r for r in replies) == 1
    release.set()
    for socket in sockets:
        await socket.disconnect()


async def test_concurrent_questions_never_lose_a_count(settings):
    settings.RAG_RATE_LIMIT = 10
    key = f"session:{uuid.uuid4()}"
    minute = fresh_minute()

    decisions = await asyncio.gather(*(rate_limit_hit(key, clock=lambda: minute) for _ in range(30)))

    assert sum(d.allowed for d in decisions) == 10


def anonymous(address: str, session: str | None = None) -> str:
    return caller_key(user_id=None, session_key=session, client=address)


async def test_an_address_is_limited_across_all_the_sessions_it_presents(settings):
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 20, 3
    address, minute = f"10.9.{random.randrange(256)}.{random.randrange(256)}", fresh_minute()

    decisions = [await rate_limit_hit(anonymous(address, f"minted-{n}"), clock=lambda: minute) for n in range(4)]
    without_session = await rate_limit_hit(anonymous(address), clock=lambda: minute)
    elsewhere = await rate_limit_hit(anonymous(f"{address}1", "minted-0"), clock=lambda: minute)

    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert "3 questions have been asked from your network address" in decisions[-1].message
    assert not without_session.allowed and elsewhere.allowed


async def test_a_session_over_its_own_limit_does_not_use_up_its_addresss(settings):
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 2, 3
    address, minute = f"10.8.{random.randrange(256)}.{random.randrange(256)}", fresh_minute()
    flooder = [await rate_limit_hit(anonymous(address, "flooder"), clock=lambda: minute) for _ in range(5)]

    other = await rate_limit_hit(anonymous(address, "other"), clock=lambda: minute)

    assert [d.allowed for d in flooder] == [True, True, False, False, False]
    assert "You have asked 2 questions" in flooder[-1].message
    assert other.allowed  # the address has counted 3: the flooder's first two questions and this one


async def test_signed_in_users_are_not_limited_by_address(settings):
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 20, 1
    minute = fresh_minute()

    decisions = [await rate_limit_hit(caller_key(user_id=n, session_key="s", client="10.7.0.1"), clock=lambda: minute)
                 for n in range(3)]

    assert all(d.allowed for d in decisions)
