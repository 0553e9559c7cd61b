"""Real daphne servers for tests, forked from the test process onto its test database (as channels' live server)."""
import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from channels.routing import get_default_application
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.db import connections

HOST = "127.0.0.1"
START_SECONDS = 30


def fresh_server_state() -> None:
    """In the forked server: the test database, and an executor and channel layers of its own.

    The test process's belong to it: its async tests started asgiref's one sync thread, which a fork inherits
    without the thread, so the consumer's database calls would never run; its channel layers are bound to those
    tests' event loops.
    """
    set_database_connection()
    forget_inherited_pools()
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()


_INHERITED: list = []  # the test process's pools, kept referenced so their sockets are never closed from here


def forget_inherited_pools() -> None:
    """Give this fork connection pools of its own (with DJANGO_DB_POOL_MAX): the inherited ones' threads did not fork.

    They are kept, not closed: closing would end connections the test process is still using.
    """
    for connection in connections.all(initialized_only=True):
        pools = getattr(type(connection), "_connection_pools", None)
        if pools:
            _INHERITED.append(dict(pools))
            pools.clear()
        if connection.connection is not None:
            _INHERITED.append(connection.connection)
            connection.connection = None


def site_application(static_wrapper=None):
    """The site's ASGI application, as the forked server builds it."""
    return make_application(static_wrapper=static_wrapper)


@contextlib.contextmanager
def running_daphnes(
    count: int = 1,
    *,
    application: Callable = site_application,
    setup: Callable[[], None] = fresh_server_state,
    daemon: bool = False,
    on_timeout: Callable[[str], None] | None = None,
    server_options: Mapping[str, Any] | None = None,
) -> Iterator[list[str]]:
    """Start `count` daphne processes serving the site and yield their base URLs; stop them afterwards.

    Not daemons by default: a server parses uploads in a child process of its own, which a daemon may not start.
    `server_options`: more of daphne's Server arguments (the proxy headers to trust, say).
    """
    get_default_application()  # import the site once: every fork inherits it
    connections.close_all()  # the forks must not share this process's database sockets
    servers = [DaphneProcess(HOST, application, kwargs=dict(server_options or {}), setup=setup) for _ in range(count)]
    try:
        for server in servers:
            server.daemon = daemon
            server.start()
        deadline = time.monotonic() + START_SECONDS
        for server in servers:
            while not server.ready.wait(timeout=0.1):
                if not server.is_alive() or time.monotonic() > deadline:
                    detail = "" if server.errors.empty() else server.errors.get(False)[1]
                    message = f"daphne did not start within {START_SECONDS} s. {detail}"
                    if on_timeout is not None:
                        on_timeout(message)
                    raise RuntimeError(message)
        yield [f"http://{HOST}:{server.port.value}" for server in servers]
    finally:
        for server in servers:
            stop_daphne(server)


def stop_daphne(server: DaphneProcess) -> None:
    """Stop a server, killing it if it does not stop within ten seconds."""
    if not server.is_alive():
        return
    server.terminate()
    server.join(timeout=10)
    if server.is_alive():
        server.kill()
        server.join()
