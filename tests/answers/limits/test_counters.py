"""Shared counters: one atomic step each, in Redis when the site has it, else in this process."""
import socket
import time
import uuid

import pytest
from django.conf import settings

from answers.limits.counters import MemoryCounters, RedisCounters
from answers.outages import ServiceUnavailable

pytestmark = pytest.mark.asyncio


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


BACKENDS = [
    pytest.param(lambda: MemoryCounters(), id="memory"),
    pytest.param(
        lambda: RedisCounters(settings.REDIS_URL),
        id="redis",
        marks=pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI's second run sets it)"),
    ),
]


@pytest.mark.parametrize("make", BACKENDS)
async def test_a_caller_within_the_limit_is_counted_for_the_site_too(make):
    counters, key = make(), uuid.uuid4().hex
    tiers = [(f"rag:test:{key}:c", 2), (f"rag:test:{key}:s", 100)]

    counts = [await counters.count_rate(tiers, ttl_s=60) for _ in range(3)]

    assert counts == [(1, 1), (2, 2), (3, 0)]  # the third is over the caller's limit: the site does not count it


@pytest.mark.parametrize("make", BACKENDS)
async def test_each_counter_counts_only_questions_within_the_limits_before_it(make):
    counters, key = make(), uuid.uuid4().hex
    session = [(f"rag:test:{key}:session-{n}", 2) for n in range(3)]
    address, site = (f"rag:test:{key}:address", 3), (f"rag:test:{key}:site", 100)

    counts = [await counters.count_rate([session[n % 3], address, site], ttl_s=60) for n in range(6)]
    flooded = await counters.count_rate([session[0], address, site], ttl_s=60)  # session 0's third question

    assert counts == [(1, 1, 1), (1, 2, 2), (1, 3, 3), (2, 4, 0), (2, 5, 0), (2, 6, 0)]
    assert flooded == (3, 0, 0)  # over its own limit: neither the address nor the site counts it


@pytest.mark.parametrize("make", BACKENDS)
async def test_counts_taken_back_are_counted_again_and_never_go_below_zero(make):
    counters, key = make(), uuid.uuid4().hex
    tiers = [(f"rag:test:{key}:address", 2), (f"rag:test:{key}:username", 2)]
    keys = [tier for tier, _ in tiers]

    counted = [await counters.count_rate(tiers, ttl_s=60) for _ in range(2)]
    for _ in range(3):  # one more than was counted
        await counters.uncount_rate(keys)
    await counters.uncount_rate([f"rag:test:{key}:never-counted"])

    assert counted == [(1, 1), (2, 2)]
    assert await counters.count_rate(tiers, ttl_s=60) == (1, 1)
    assert await counters.count_rate([(f"rag:test:{key}:never-counted", 0)], ttl_s=60) == (1,)


async def test_a_count_taken_back_in_redis_keeps_its_expiry_and_a_lapsed_one_stays_gone(redis_server):
    import redis.asyncio

    counters, key = RedisCounters(redis_server.url), f"rag:test:{uuid.uuid4().hex}"
    await counters.count_rate([(key, 0)], ttl_s=60)
    await counters.count_rate([(key, 0)], ttl_s=60)
    client = redis.asyncio.Redis.from_url(redis_server.url)
    try:
        await counters.uncount_rate([key, f"{key}:lapsed"])

        assert int(await client.get(key)) == 1 and 0 < await client.ttl(key) <= 60
        assert not await client.exists(f"{key}:lapsed")  # not brought back as -1 with no expiry
    finally:
        await client.aclose()


async def test_in_memory_counts_taken_back_keep_their_expiry():
    clock = Clock()
    counters = MemoryCounters(clock=clock)
    await counters.count_rate([("attempts", 0)], ttl_s=10)
    await counters.count_rate([("attempts", 0)], ttl_s=10)

    clock.now += 5
    await counters.uncount_rate(["attempts"])
    kept = await counters.count_rate([("attempts", 0)], ttl_s=10)
    clock.now += 6

    assert kept == (2,)
    assert await counters.count_rate([("attempts", 0)], ttl_s=10) == (1,)  # lapsed 10 s after the first count


@pytest.mark.parametrize("make", BACKENDS)
async def test_slots_are_taken_up_to_the_limit_and_given_back_never_below_zero(make):
    counters, key = make(), f"rag:test:{uuid.uuid4().hex}:slot"

    taken = [await counters.take_slot(key, limit=2, ttl_s=60) for _ in range(3)]
    for _ in range(4):
        await counters.give_slot(key)

    assert taken == [True, True, False]
    assert [await counters.take_slot(key, limit=2, ttl_s=60) for _ in range(3)] == [True, True, False]


@pytest.mark.parametrize("make", BACKENDS)
async def test_slots_taken_together_are_taken_all_or_none_and_given_back_together(make):
    counters, key = make(), uuid.uuid4().hex
    own, shared = f"rag:test:{key}:own", f"rag:test:{key}:shared"

    first = await counters.take_slots([(own, 2), (shared, 1)], ttl_s=60)
    refused = await counters.take_slots([(own, 2), (shared, 1)], ttl_s=60)  # the shared one is full
    unlimited = await counters.take_slots([(own, 0)], ttl_s=60)

    assert (first, refused, unlimited) == (None, 1, None)
    assert await counters.take_slots([(own, 3)], ttl_s=60) is None  # the refused take gave its own slot back: 3
    assert await counters.take_slots([(own, 3)], ttl_s=60) == 0
    await counters.give_slots([own, shared, own, own, own])  # never below zero
    assert await counters.take_slots([(own, 1), (shared, 1)], ttl_s=60) is None


async def test_in_memory_counts_lapse_after_their_time():
    clock = Clock()
    counters = MemoryCounters(clock=clock)
    await counters.take_slot("slot", limit=1, ttl_s=10)
    assert not await counters.take_slot("slot", limit=1, ttl_s=10)

    clock.now += 11

    assert await counters.take_slot("slot", limit=1, ttl_s=10)  # a crashed answer's slot does not block for ever
    assert await counters.count_rate([("caller", 0)], ttl_s=5) == (1,)
    clock.now += 6
    assert await counters.count_rate([("caller", 0)], ttl_s=5) == (1,)


async def test_in_memory_slots_are_renewed_by_a_take_but_not_by_a_refused_one():
    clock = Clock()
    counters = MemoryCounters(clock=clock)
    await counters.take_slot("renewed", limit=2, ttl_s=10)
    await counters.take_slot("leaked", limit=1, ttl_s=10)

    clock.now += 8
    await counters.take_slot("renewed", limit=2, ttl_s=10)
    assert not await counters.take_slot("leaked", limit=1, ttl_s=10)  # a caller retrying against a leaked slot
    clock.now += 3

    assert not await counters.take_slot("renewed", limit=2, ttl_s=10)  # both takes still held
    assert await counters.take_slot("leaked", limit=1, ttl_s=10)  # lapsed 10 s after its only successful take


async def test_a_redis_that_goes_away_is_unavailable_at_once_and_counts_again_when_back(redis_server):
    counters, key = RedisCounters(redis_server.url), f"rag:test:{uuid.uuid4().hex}"
    assert await counters.count_rate([(key, 0)], ttl_s=60) == (1,)

    redis_server.stop()
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match="busy"):
        await counters.count_rate([(key, 0)], ttl_s=60)
    waited = time.monotonic() - started
    redis_server.start()  # empty again: nothing was saved

    assert waited < 1  # wall time: a real refused connection, answered without a retry backoff slept
    assert await counters.count_rate([(key, 0)], ttl_s=60) == (1,)  # the same event loop, the same counters


async def test_a_redis_that_never_answers_is_unavailable_within_the_timeout():
    with socket.socket() as silent:  # accepts connections (the kernel does), never replies
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        counters = RedisCounters(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        started = time.monotonic()

        with pytest.raises(ServiceUnavailable):
            await counters.take_slot("rag:test:silent", limit=1, ttl_s=60)

    # wall time: the real socket's reply timeout (REPLY_TIMEOUT_S) with one retry; not 5 s, not ten retries
    assert time.monotonic() - started < 3


async def test_a_failed_client_is_replaced_at_once_and_closed_only_after_other_scripts_had_their_time(monkeypatch):
    import asyncio

    from answers.limits import counters as module

    monkeypatch.setattr(module, "RETIRE_AFTER_S", 0.2, raising=False)
    with socket.socket() as unused:  # a port nothing listens on: every connection is refused
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    counters = RedisCounters(f"redis://127.0.0.1:{port}/0")
    loop = asyncio.get_running_loop()
    failed, _ = counters._client(loop)
    closed: list[float] = []

    async def aclose() -> None:
        closed.append(time.monotonic())

    monkeypatch.setattr(failed, "aclose", aclose)
    with pytest.raises(ServiceUnavailable):
        await counters.take_slot("rag:test:refused", limit=1, ttl_s=60)
    replaced_at = time.monotonic()

    assert counters._client(loop)[0] is not failed  # the next question gets a fresh client
    assert closed == []  # scripts other questions still run on the old one are not cut mid-command
    await asyncio.sleep(0.5)
    assert len(closed) == 1 and closed[0] - replaced_at >= 0.15


@pytest.mark.parametrize("make", BACKENDS)
async def test_admission_counts_the_rates_then_takes_the_slot_only_within_them(make):
    counters, key = make(), uuid.uuid4().hex
    tiers, slot = [(f"rag:test:{key}:c", 2), (f"rag:test:{key}:s", 100)], f"rag:test:{key}:slot"

    admitted = [await counters.admit(tiers, slot, rate_ttl_s=60, slot_limit=1, slot_ttl_s=60) for _ in range(3)]
    await counters.give_slot(slot)

    # the second is within the rates but the caller's one slot is held: counted, refused; the third is over the
    # caller's rate: not counted for the site, and no slot tried
    assert admitted == [((1, 1), True), ((2, 2), False), ((3, 0), False)]
    assert await counters.take_slot(slot, limit=1, ttl_s=60)  # the refused takes left the slot as it was


@pytest.mark.parametrize("make", BACKENDS)
async def test_admission_without_rate_limits_only_takes_the_slot(make):
    counters, slot = make(), f"rag:test:{uuid.uuid4().hex}:slot"

    taken = [await counters.admit([], slot, rate_ttl_s=60, slot_limit=2, slot_ttl_s=60) for _ in range(3)]

    assert taken == [((), True), ((), True), ((), False)]


async def test_a_pool_without_a_free_connection_is_unavailable_but_keeps_its_client(monkeypatch):
    import asyncio

    import redis.exceptions

    counters = RedisCounters("redis://127.0.0.1:1/0")
    loop = asyncio.get_running_loop()
    client, scripts = counters._client(loop)

    async def exhausted(**_) -> None:  # what redis-py's blocking pool raises when no connection frees up in time
        raise redis.exceptions.ConnectionError("No connection available.") from TimeoutError()

    monkeypatch.setitem(scripts, "take", exhausted)
    with pytest.raises(ServiceUnavailable):
        await counters.take_slot("rag:test:busy", limit=1, ttl_s=60)

    assert counters._client(loop)[0] is client  # Redis is fine: no fresh connections for a loop already behind


async def test_every_connection_announces_one_driver_info_read_once():
    from answers.limits import counters as module

    assert module._driver_info() is module._driver_info()
    assert module._driver_info().lib_version  # given, so a new connection does not read the package metadata
