"""Database work from async code, on a small thread pool rather than all on asgiref's one thread.

`sync_to_async` and channels' `database_sync_to_async` are thread-sensitive by default: every call of a worker
runs on one thread, one after the other, so 100 sockets' questions queue behind each other's round trips to the
database (the load test's answers/s stayed near 1 / the sum of a question's round trips). A call made here runs on
a pool thread with its own connection (from the pool, on PostgreSQL), closed when old before and after, as
channels does. Only for self-contained calls: nothing that relies on a connection or transaction another call
opened. The pool has RAG_DB_THREADS threads whatever the cores (0, the default, means no pool: a test's
database transaction is visible to its own thread only), fewer than a worker's pooled connections
(DJANGO_DB_POOL_MAX, 8 by default), so they never wait for one. SQLite takes one writer at a time (and its in-memory
test database, in shared-cache mode, fails a second writer at once with "database is locked" rather than waiting),
so there calls stay plain `sync_to_async` calls on asgiref's one thread, which also leave its connection open.
"""
import functools
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def _executor(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="db-call")


def db_call(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`func` as a coroutine function that runs on a thread of the database pool, not the one thread-sensitive one
    (on SQLite: on that one thread)."""
    if not side_by_side():
        return sync_to_async(func)
    return database_sync_to_async(func, thread_sensitive=False, executor=_executor(settings.RAG_DB_THREADS))


def side_by_side() -> bool:
    """Whether calls run on the pool: RAG_DB_THREADS set (0, the default, keeps Channels' one thread) and a
    database that takes concurrent writers (PostgreSQL does; SQLite serialises them)."""
    return settings.RAG_DB_THREADS > 0 and connections["default"].vendor != "sqlite"
