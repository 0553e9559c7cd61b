"""Concurrent answers: per caller across all their sockets and workers (shared counters), and per worker process."""
import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Callable

from django.conf import settings

from answers.limits.counters import shared_counters
from answers.limits.rates import RATE_TTL_S, rate_plan
from answers.outages import ServiceUnavailable

logger = logging.getLogger(__name__)

SLOT_TTL_S = 600  # a crashed worker's slots expire rather than block a caller for ever


class QuestionRefused(Exception):
    """A question that may not be answered now, with a message saying why and when to retry."""

    def __init__(self, message: str, *, retry_after_s: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after_s = retry_after_s


class LoopSlots:
    """At most `limit` holders at once on each event loop (a semaphore binds to the loop it is first used on)."""

    def __init__(self) -> None:
        self._semaphores: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    async def take(self, *, limit: int, wait_s: float) -> asyncio.Semaphore | None:
        """Take a slot, waiting at most wait_s for one (0: only a free one); the semaphore to release, or None."""
        loop = asyncio.get_running_loop()
        semaphore = self._semaphores.get(loop)
        if semaphore is None:
            semaphore = self._semaphores[loop] = asyncio.Semaphore(limit)
        try:
            # Not wait_for: with a timeout of 0 it gives up before even trying a free semaphore (Python 3.11).
            async with asyncio.timeout(wait_s):
                await semaphore.acquire()
        except TimeoutError:
            return None
        return semaphore


_worker_slots = LoopSlots()


def _too_many(per_caller: int) -> QuestionRefused:
    return QuestionRefused(
        f"You already have {per_caller} answer{'s' if per_caller != 1 else ''} being written; "
        "wait for one to finish, then ask again."
    )


@contextlib.asynccontextmanager
async def answering(key: str) -> AsyncIterator[None]:
    """Hold one of the caller's concurrent-answer slots and one of this worker's for the answer's duration."""
    per_caller = settings.RAG_MAX_CONCURRENT_PER_CALLER
    slot_key = f"rag:answering:{key}"
    if per_caller > 0 and not await shared_counters().take_slot(slot_key, limit=per_caller, ttl_s=SLOT_TTL_S):
        raise _too_many(per_caller)
    async with _held(slot_key if per_caller > 0 else None, key):
        yield


@contextlib.asynccontextmanager
async def admitted(key: str, *, clock: Callable[[], float] | None = None) -> AsyncIterator[None]:
    """Count a question against the caller's rates (limits/rates.py) and, if within them, hold one of their
    concurrent-answer slots, in one shared step (one Redis round trip, where `rate_limit_hit` then `answering` take
    two), then one of this worker's slots, for the answer's duration. QuestionRefused when a rate or a cap says no."""
    plan = rate_plan(key, clock=clock)
    per_caller = settings.RAG_MAX_CONCURRENT_PER_CALLER
    slot_key = f"rag:answering:{key}"
    counters = shared_counters()
    if per_caller > 0:
        counts, taken = await counters.admit(
            plan.counters, slot_key, rate_ttl_s=RATE_TTL_S, slot_limit=per_caller, slot_ttl_s=SLOT_TTL_S,
        )
    else:
        counts, taken = (await counters.count_rate(plan.counters, ttl_s=RATE_TTL_S) if plan.tiers else ()), False
    decision = plan.decision(counts)
    if not decision.allowed:
        raise QuestionRefused(decision.message, retry_after_s=decision.retry_after_s)
    if per_caller > 0 and not taken:
        raise _too_many(per_caller)
    async with _held(slot_key if per_caller > 0 else None, key):
        yield


@contextlib.asynccontextmanager
async def _held(slot_key: str | None, key: str) -> AsyncIterator[None]:
    """Hold one of this worker's slots while the caller's (`slot_key`, None when uncapped) is held; give both back."""
    counters = shared_counters()
    try:
        semaphore = await _worker_slots.take(
            limit=settings.RAG_MAX_CONCURRENT_ANSWERS, wait_s=settings.RAG_ANSWER_QUEUE_WAIT_S
        )
        if semaphore is None:
            raise QuestionRefused("The site is busy answering other questions; please try again in a minute.")
        try:
            yield
        finally:
            semaphore.release()
    finally:
        if slot_key is not None:
            try:
                await counters.give_slot(slot_key)
            except ServiceUnavailable:  # the answer is given; the slot lapses after SLOT_TTL_S
                logger.warning("Could not give back an answering slot of %s: the shared counters are down", key)
