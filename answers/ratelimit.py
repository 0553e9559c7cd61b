"""Per-caller question limits, counted in the shared cache so every socket and worker of a caller adds up."""
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

WINDOW_S = 60


@dataclass(frozen=True)
class RateDecision:
    """Whether a question may go ahead, and if not, in how many seconds it may."""

    allowed: bool
    retry_after_s: int = 0

    @property
    def message(self) -> str:
        """What the caller is told when refused."""
        return (
            f"You have asked {settings.RAG_RATE_LIMIT} questions in the last minute; "
            f"please try again in {self.retry_after_s} seconds."
        )


def caller_key(*, user_id: int | None, session_key: str | None, client: str | None) -> str:
    """The key a caller is limited by: the user, else the session, else the client address."""
    if user_id is not None:
        return f"user:{user_id}"
    if session_key:
        return f"session:{session_key}"
    return f"client:{client or 'unknown'}"


async def rate_limit_hit(key: str, *, clock: Callable[[], float] = time.time) -> RateDecision:
    """Count one question for the key in the current one-minute window."""
    limit = settings.RAG_RATE_LIMIT
    if limit <= 0:
        return RateDecision(True)
    now = clock()
    window = int(now // WINDOW_S)
    cache_key = f"rag:rate:{key}:{window}"
    await cache.aadd(cache_key, 0, timeout=WINDOW_S * 2)
    count = await cache.aincr(cache_key)
    if count <= limit:
        return RateDecision(True)
    return RateDecision(False, max(1, math.ceil((window + 1) * WINDOW_S - now)))
