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
    counted). TooManySockets when one is full; then none is taken."""
    slots: list[tuple[str, int, str | None]] = [(f"rag:sockets:{key}", settings.RAG_MAX_SOCKETS_PER_CALLER, None)]
    address, _, session = key.partition("/")
    if key.startswith("client:") and session:
        limit = settings.RAG_MAX_SOCKETS_PER_ADDRESS
        crowded = f"{limit} chat windows are open from your network address"
        slots.append((f"rag:sockets-address:{address}", limit, crowded))  # not the cookieless caller's own counter
    counted = [(slot, limit, full) for slot, limit, full in slots if limit > 0]
    if not counted:
        return ()
    try:  # all or none, in one round trip
        refused_at = await shared_counters().take_slots([(slot, limit) for slot, limit, _ in counted],
                                                        ttl_s=SOCKET_SLOT_TTL_S)
    except UNREACHABLE:
        # Open, uncounted: while the counters are down every question is refused with a notice anyway.
        logger.warning("Open sockets are not counted: the shared counters cannot be reached", exc_info=True)
        return ()
    if refused_at is not None:
        _, limit, full = counted[refused_at]
        raise TooManySockets(f"{full or f'You have {limit} chat windows open'}; close one, then reload this "
                             "page to ask here.")
    return tuple(slot for slot, _, _ in counted)


async def socket_closed(slots: tuple[str, ...]) -> None:
    """Give a socket's slots back, in one round trip (their expiry gives them back if the counters cannot be
    reached now)."""
    if not slots:
        return
    try:
        await shared_counters().give_slots(slots)
    except UNREACHABLE:
        logger.warning("A closed socket's slots could not be given back; they lapse with their expiry", exc_info=True)
