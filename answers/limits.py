"""Limits on questions: per caller and site-wide, counted in the shared cache so every socket and worker adds up.

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

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

WINDOW_S = 60


# Django's async cache methods (aincr, adecr) read and then write: concurrent questions would lose counts. The sync
# ones are atomic (a lock in the local-memory cache, INCR and SET NX in Redis); they touch no database, so they run
# off the thread that Django's database calls are kept on.
_cache_add = sync_to_async(lambda key, value, timeout: cache.add(key, value, timeout=timeout), thread_sensitive=False)
_cache_incr = sync_to_async(lambda key: cache.incr(key), thread_sensitive=False)
_cache_decr = sync_to_async(lambda key: cache.decr(key), thread_sensitive=False)
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
    """The key a caller is limited by: the user, else the session, else the client address."""
    if user_id is not None:
        return f"user:{user_id}"
    if session_key:
        return f"session:{session_key}"
    return f"client:{client or 'unknown'}"


async def _count(key: str, now: float) -> tuple[int, int]:
    """Count one question in the current one-minute window; return the count and the seconds left in it."""
    window = int(now // WINDOW_S)
    cache_key = f"rag:rate:{key}:{window}"
    await _cache_add(cache_key, 0, timeout=WINDOW_S * 2)
    return await _cache_incr(cache_key), max(1, math.ceil((window + 1) * WINDOW_S - now))


async def rate_limit_hit(key: str, *, clock: Callable[[], float] = time.time) -> RateDecision:
    """Count one question for the caller and for the site; refuse it if either is over its limit."""
    now = clock()
    limit, site_limit = settings.RAG_RATE_LIMIT, settings.RAG_SITE_RATE_LIMIT
    if limit > 0:
        count, retry = await _count(key, now)
        if count > limit:
            return RateDecision(
                False, retry, f"You have asked {limit} questions in the last minute; please try again in {retry} seconds."
            )
    if site_limit > 0:
        count, retry = await _count("site", now)
        if count > site_limit:
            return RateDecision(
                False, retry, f"The site is answering as many questions as it can; please try again in {retry} seconds."
            )
    return RateDecision(True)


_worker_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _worker_semaphore() -> asyncio.Semaphore:
    # One per event loop: a semaphore binds to the loop it is first used on.
    loop = asyncio.get_running_loop()
    semaphore = _worker_slots.get(loop)
    if semaphore is None:
        semaphore = _worker_slots[loop] = asyncio.Semaphore(settings.RAG_MAX_CONCURRENT_ANSWERS)
    return semaphore


@contextlib.asynccontextmanager
async def answering(key: str) -> AsyncIterator[None]:
    """Hold one of the caller's concurrent-answer slots and one of this worker's for the answer's duration."""
    per_caller = settings.RAG_MAX_CONCURRENT_PER_CALLER
    slot_key = f"rag:answering:{key}"
    await _cache_add(slot_key, 0, timeout=SLOT_TTL_S)
    try:
        if await _cache_incr(slot_key) > per_caller > 0:
            raise QuestionRefused(
                f"You already have {per_caller} answer{'s' if per_caller != 1 else ''} being written; "
                "wait for one to finish, then ask again."
            )
        semaphore = _worker_semaphore()
        try:
            await asyncio.wait_for(semaphore.acquire(), timeout=settings.RAG_ANSWER_QUEUE_WAIT_S)
        except TimeoutError:
            raise QuestionRefused("The site is busy answering other questions; please try again in a minute.") from None
        try:
            yield
        finally:
            semaphore.release()
    finally:
        with contextlib.suppress(ValueError):  # the slot may have expired meanwhile
            await _cache_decr(slot_key)
