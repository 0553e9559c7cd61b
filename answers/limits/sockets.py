"""Open chat sockets per caller (and per address for anonymous callers), counted in the shared counters so every
socket of every worker adds up."""
import logging

from django.conf import settings
from redis.exceptions import RedisError

from answers.limits.counters import shared_counters
from answers.outages import ServiceUnavailable

logger = logging.getLogger(__name__)

# Each socket the caller opens renews the count's expiry; a crashed worker's sockets stop counting an hour after
# the caller last opened one (a longer-lived socket then no longer counts either: the cap bounds sockets per hour).
SOCKET_SLOT_TTL_S = 3600
UNREACHABLE = (RedisError, OSError, ServiceUnavailable)


class TooManySockets(Exception):
    """The caller has as many sockets open as they may; `message` says what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def socket_opened(key: str) -> tuple[str, ...]:
    """Count one more open socket for the caller, and for an anonymous caller with a session also for their address
    (RAG_MAX_SOCKETS_PER_ADDRESS, whatever sessions it presents): the slots to give back on close (none: not
    counted). TooManySockets when one is full; the slots taken before it are given back."""
    slots: list[tuple[str, int, str | None]] = [(f"rag:sockets:{key}", settings.RAG_MAX_SOCKETS_PER_CALLER, None)]
    address, _, session = key.partition("/")
    if key.startswith("client:") and session:
        limit = settings.RAG_MAX_SOCKETS_PER_ADDRESS
        crowded = f"{limit} chat windows are open from your network address"
        slots.append((f"rag:sockets-address:{address}", limit, crowded))  # not the cookieless caller's own counter
    taken: list[str] = []
    try:
        for slot, limit, full in slots:
            if limit <= 0:
                continue
            if not await shared_counters().take_slot(slot, limit=limit, ttl_s=SOCKET_SLOT_TTL_S):
                await socket_closed(tuple(taken))
                raise TooManySockets(f"{full or f'You have {limit} chat windows open'}; close one, then reload this "
                                     "page to ask here.")
            taken.append(slot)
    except UNREACHABLE:
        # Open, uncounted: while the counters are down every question is refused with a notice anyway.
        logger.warning("Open sockets are not counted: the shared counters cannot be reached", exc_info=True)
        await socket_closed(tuple(taken))
        return ()
    return tuple(taken)


async def socket_closed(slots: tuple[str, ...]) -> None:
    """Give a socket's slots back (their expiry gives them back if the counters cannot be reached now)."""
    for slot in slots:
        try:
            await shared_counters().give_slot(slot)
        except UNREACHABLE:
            logger.warning("A closed socket's slot could not be given back; it lapses with its expiry", exc_info=True)
