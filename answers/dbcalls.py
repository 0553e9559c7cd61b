"""Database work from async code, on a small thread pool rather than all on asgiref's one thread.

`sync_to_async` and channels' `database_sync_to_async` are thread-sensitive by default: every call of a worker
runs on one thread, one after the other, so 100 sockets' questions queue behind each other's round trips to the
database (the load test's answers/s stayed near 1 / the sum of a question's round trips). A call made here runs on
a pool thread with its own connection (from the pool, PostgreSQL; SQLite's busy timeout orders writers), and is
closed when old before and after, as channels does. Only for self-contained calls: nothing that relies on a
connection or transaction another call opened. The pool has DB_THREADS threads whatever the cores, fewer than a
worker's pooled connections (DJANGO_DB_POOL_MAX, 8 by default), so they never wait for one.
"""
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import database_sync_to_async

P = ParamSpec("P")
R = TypeVar("R")


DB_THREADS = 4  # concurrent database calls per worker process, beside asgiref's one thread-sensitive thread
_EXECUTOR = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="db-call")


def db_call(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`func` as a coroutine function that runs on a thread of the database pool, not the one thread-sensitive one."""
    return database_sync_to_async(func, thread_sensitive=False, executor=_EXECUTOR)
