"""Question rate limits: per caller, per network address and site-wide, counted across every worker."""
import asyncio
import random
import uuid

import pytest

from answers.limits.rates import caller_key, rate_limit_hit

pytestmark = pytest.mark.asyncio


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
