"""Limits on questions: per caller and site-wide, counted in shared counters so every socket and worker adds up.

Two kinds: a rate (questions a minute, per caller and for the whole site) and concurrency (answers being written
at once, per caller across all their sockets and workers, and per worker process).
"""
import asyncio
import contextlib
import math
import time
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from django.conf import settings

from answers.counters import shared_counters

WINDOW_S = 60

SLOT_TTL_S = 600  # a crashed worker's slots expire rather than block a caller for ever


class QuestionRefused(Exception):
    """A question that may not be answered now, with a message saying why and when to retry."""

    def __init__(self, message: str, *, retry_after_s: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after_s = retry_after_s


class ServiceUnavailable(Exception):
    """A part every answer needs (the shared counters, the database) cannot be reached now; says so in `message`."""

    def __init__(self, message: str = "The site is busy and cannot answer right now; please try again shortly.") -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class RateDecision:
    """Whether a question may go ahead, and if not, in how many seconds it may."""

    allowed: bool
    retry_after_s: int = 0
    message: str = ""


def caller_key(*, user_id: int | None, session_key: str | None, client: str | None) -> str:
    """The key a caller is limited by: the user, else the session, else the client address."""
    if user_id is not None:
        return f"user:{user_id}"
    if session_key:
        return f"session:{session_key}"
    return f"client:{client or 'unknown'}"


async def rate_limit_hit(key: str, *, clock: Callable[[], float] = time.time) -> RateDecision:
    """Count one question for the caller and for the site; refuse it if either is over its limit."""
    now = clock()
    limit, site_limit = settings.RAG_RATE_LIMIT, settings.RAG_SITE_RATE_LIMIT
    if limit <= 0 and site_limit <= 0:
        return RateDecision(True)
    window = int(now // WINDOW_S)
    retry = max(1, math.ceil((window + 1) * WINDOW_S - now))
    caller, site = await shared_counters().count_rate(
        f"rag:rate:{key}:{window}" if limit > 0 else None,
        f"rag:rate:site:{window}" if site_limit > 0 else None,
        caller_limit=limit,
        ttl_s=WINDOW_S * 2,
    )
    if limit > 0 and caller > limit:
        return RateDecision(
            False, retry, f"You have asked {limit} questions in the last minute; please try again in {retry} seconds."
        )
    if site_limit > 0 and site > site_limit:
        return RateDecision(
            False, retry, f"The site is answering as many questions as it can; please try again in {retry} seconds."
        )
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
            await counters.give_slot(slot_key)
