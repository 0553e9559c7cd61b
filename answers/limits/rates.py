"""Question rates: questions a minute per caller, per address for anonymous callers, and for the whole site,
counted in shared counters so every socket and worker adds up (concurrency is limits/slots.py's)."""
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from answers.limits.counters import shared_counters

logger = logging.getLogger(__name__)

WINDOW_S = 60

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


@dataclass(frozen=True)
class RatePlan:
    """The counters one question of a caller is counted in now, and how to read their counts."""

    tiers: tuple[_RateTier, ...]
    window: int
    now: float

    @property
    def counters(self) -> list[tuple[str, int]]:
        """(key, limit) of each counter, in the order they are counted."""
        return [(tier.key, tier.limit) for tier in self.tiers]

    def decision(self, counts: tuple[int, ...]) -> RateDecision:
        """Refused by the first counter over its limit, with when to retry; else allowed."""
        for tier, count in zip(self.tiers, counts, strict=True):  # one count per tier asked
            if count > tier.limit:
                retry = max(1, math.ceil((self.window + 1) * WINDOW_S - self.now))
                return RateDecision(False, retry, f"{tier.refusal}; please try again in {retry} seconds.")
        return RateDecision(True)


RATE_TTL_S = WINDOW_S * 2


def rate_plan(key: str, *, clock: Callable[[], float] | None = None) -> RatePlan:
    """The counters a question of the caller with this key is counted in now (none when every limit is off)."""
    now = (clock or wall_clock)()
    window = int(now // WINDOW_S)
    return RatePlan(tuple(_rate_tiers(key, window)), window, now)


async def rate_limit_hit(key: str, *, clock: Callable[[], float] | None = None) -> RateDecision:
    """Count one question for the caller, their address (anonymous callers) and the site; refuse it if one is over.

    A counter counts a question only if it is within the limits before it: a session over its own limit does not
    use up its address's allowance, nor a caller over theirs the site's.
    """
    plan = rate_plan(key, clock=clock)
    if not plan.tiers:
        return RateDecision(True)
    return plan.decision(await shared_counters().count_rate(plan.counters, ttl_s=RATE_TTL_S))


async def session_mint_allowed(address: str | None, *, clock: Callable[[], float] | None = None) -> bool:
    """Count a new session for an anonymous visitor from this address; False once the address has been given
    RAG_SESSION_MINT_LIMIT this minute (each is a database row, and a page view costs nothing to send)."""
    limit = settings.RAG_SESSION_MINT_LIMIT
    if limit <= 0:
        return True
    window = int((clock or wall_clock)() // WINDOW_S)
    key = f"rag:mint-session:{address or 'unknown'}:{window}"
    (count,) = await shared_counters().count_rate([(key, limit)], ttl_s=RATE_TTL_S)
    return count <= limit
