"""Limits on questions: per caller and site-wide, counted in shared counters so every socket and worker adds up.

Two kinds: a rate (questions a minute, per caller, per address for anonymous callers, and for the whole site) and
concurrency (answers being written at once, per caller across all their sockets and workers, and per worker process).
"""
import asyncio
import contextlib
import logging
import math
import time
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from django.conf import settings

from answers.limits.counters import shared_counters
from answers.outages import ServiceUnavailable

logger = logging.getLogger(__name__)

WINDOW_S = 60

SLOT_TTL_S = 600  # a crashed worker's slots expire rather than block a caller for ever


class QuestionRefused(Exception):
    """A question that may not be answered now, with a message saying why and when to retry."""

    def __init__(self, message: str, *, retry_after_s: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class RateDecision:
    """Whether a question may go ahead, and if not, in how many seconds it may."""

    allowed: bool
    retry_after_s: int = 0
    message: str = ""


def caller_key(*, user_id: int | None, session_key: str | None, client: str | None) -> str:
    """The key a caller is limited by: the user; else the address, with the session when there is one.

    An anonymous caller's key starts with their address (`client:<address>`, then `/session:<key>`), so every
    anonymous question from an address also counts against that address, however many sessions it presents.
    """
    if user_id is not None:
        return f"user:{user_id}"
    address = f"client:{client or 'unknown'}"
    return f"{address}/session:{session_key}" if session_key else address


def _rate_keys(key: str) -> tuple[str, str | None]:
    """The caller's own counter (user, session, or address) and, for an anonymous caller, their address's."""
    if not key.startswith("client:"):
        return key, None
    address, _, session = key.partition("/")
    return session or address, address


@dataclass(frozen=True)
class _RateTier:
    """One counter a question is counted in, its limit a minute, and what a question over it is told."""

    key: str
    limit: int
    refusal: str


def _rate_tiers(key: str, window: int) -> list[_RateTier]:
    """The counters of a caller's question, in order: their own, their address's (anonymous), the site's."""
    own, address = _rate_keys(key)
    caller, site = settings.RAG_RATE_LIMIT, settings.RAG_SITE_RATE_LIMIT
    tiers = [_RateTier(f"rag:rate:{own}:{window}", caller, f"You have asked {caller} questions in the last minute")]
    if address is not None:
        limit = settings.RAG_ADDRESS_RATE_LIMIT
        tiers.append(_RateTier(
            f"rag:rate-address:{address}:{window}", limit,
            f"{limit} questions have been asked from your network address in the last minute",
        ))
    tiers.append(_RateTier(f"rag:rate:site:{window}", site, "The site is answering as many questions as it can"))
    return [tier for tier in tiers if tier.limit > 0]


def wall_clock() -> float:
    """The clock the rate windows count by (seconds since the epoch); tests replace it, servers they fork included."""
    return time.time()


async def rate_limit_hit(key: str, *, clock: Callable[[], float] | None = None) -> RateDecision:
    """Count one question for the caller, their address (anonymous callers) and the site; refuse it if one is over.

    A counter counts a question only if it is within the limits before it: a session over its own limit does not
    use up its address's allowance, nor a caller over theirs the site's.
    """
    now = (clock or wall_clock)()
    window = int(now // WINDOW_S)
    tiers = _rate_tiers(key, window)
    if not tiers:
        return RateDecision(True)
    counts = await shared_counters().count_rate([(tier.key, tier.limit) for tier in tiers], ttl_s=WINDOW_S * 2)
    for tier, count in zip(tiers, counts, strict=True):  # one count per tier asked
        if count > tier.limit:
            retry = max(1, math.ceil((window + 1) * WINDOW_S - now))
            return RateDecision(False, retry, f"{tier.refusal}; please try again in {retry} seconds.")
    return RateDecision(True)


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


@contextlib.asynccontextmanager
async def answering(key: str) -> AsyncIterator[None]:
    """Hold one of the caller's concurrent-answer slots and one of this worker's for the answer's duration."""
    per_caller = settings.RAG_MAX_CONCURRENT_PER_CALLER
    counters = shared_counters()
    slot_key = f"rag:answering:{key}"
    if per_caller > 0 and not await counters.take_slot(slot_key, limit=per_caller, ttl_s=SLOT_TTL_S):
        raise QuestionRefused(
            f"You already have {per_caller} answer{'s' if per_caller != 1 else ''} being written; "
            "wait for one to finish, then ask again."
        )
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
        if per_caller > 0:
            try:
                await counters.give_slot(slot_key)
            except ServiceUnavailable:  # the answer is given; the slot lapses after SLOT_TTL_S
                logger.warning("Could not give back an answering slot of %s: the shared counters are down", key)
