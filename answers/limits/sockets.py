"""Open chat sockets per caller, counted in the shared counters so every socket of every worker adds up."""
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


async def socket_opened(key: str) -> str | None:
    """Count one more open socket for the caller: the slot to give back on close (None: not counted)."""
    limit = settings.RAG_MAX_SOCKETS_PER_CALLER
    if limit <= 0:
        return None
    slot = f"rag:sockets:{key}"
    try:
        taken = await shared_counters().take_slot(slot, limit=limit, ttl_s=SOCKET_SLOT_TTL_S)
    except UNREACHABLE:
        # Open, uncounted: while the counters are down every question is refused with a notice anyway.
        logger.warning("Open sockets are not counted: the shared counters cannot be reached", exc_info=True)
        return None
    if not taken:
        raise TooManySockets(f"You have {limit} chat windows open; close one, then reload this page to ask here.")
    return slot


async def socket_closed(slot: str | None) -> None:
    """Give a socket's slot back (its expiry gives it back if the counters cannot be reached now)."""
    if slot is None:
        return
    try:
        await shared_counters().give_slot(slot)
    except UNREACHABLE:
        logger.warning("A closed socket's slot could not be given back; it lapses with its expiry", exc_info=True)
