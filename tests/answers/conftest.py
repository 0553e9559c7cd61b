"""Fixtures for the answers tests: a Redis of the test's own to stop and start, and a database another holds locked."""
import contextlib
import sqlite3
from collections.abc import Callable, Iterator

import pytest
from django.db import connection

from answers.testing.redis_server import RedisServer, free_port

DB_WAIT_S = 1.0  # how long a query waits for a lock in these tests (the setting's default is longer)


@pytest.fixture
def redis_server(settings) -> Iterator[RedisServer]:
    """A redis-server on a free port that the limits count in; the test may stop and start it."""
    server = RedisServer()
    server.start()
    settings.REDIS_URL = server.url
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def locked_database(transactional_db, monkeypatch) -> Callable[[], contextlib.AbstractContextManager]:
    """A `with` block during which a second connection holds the SQLite test database locked (BEGIN EXCLUSIVE)."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's lock; PostgreSQL readers are not blocked by a writer")
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", DB_WAIT_S)
    connection.close()  # the next query opens a connection with the short wait

    @contextlib.contextmanager
    def locked() -> Iterator[None]:
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()

    return locked


@pytest.fixture
def unreachable_database(transactional_db, monkeypatch) -> Iterator[None]:
    """The database cannot be opened: a closed port (PostgreSQL), a file in a missing folder (SQLite)."""
    if connection.vendor == "postgresql":
        monkeypatch.setitem(connection.settings_dict, "PORT", str(free_port()))
    else:
        monkeypatch.setitem(connection.settings_dict, "NAME", "/nonexistent-folder/rag_site.sqlite3")
    connection.close()
    yield
    connection.close()  # the next query reconnects to the real database (the settings are restored after this)
