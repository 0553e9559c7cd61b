"""When a part every answer needs is down (the shared counters, the database): one exception, "busy, try again"."""
import contextlib
import logging
from collections.abc import Iterator

from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

BUSY_MESSAGE = "The site is busy and cannot answer right now; please try again shortly."
RETRY_AFTER_S = 5  # what a 503 tells a caller to wait: Redis restarts and SQLite locks are over in seconds


class ServiceUnavailable(Exception):
    """A part every answer needs (the shared counters, the database) cannot be reached now; says so in `message`."""

    def __init__(self, message: str = BUSY_MESSAGE) -> None:
        super().__init__(message)
        self.message = message


@contextlib.contextmanager
def database_available() -> Iterator[None]:
    """Turn a database that is locked, unreachable or out of connections into ServiceUnavailable."""
    try:
        yield
    except (OperationalError, InterfaceError) as error:
        logger.warning("The database cannot be used now: %s", error)
        raise ServiceUnavailable() from error
