"""Database work from async code, on the loop's thread pool rather than all on asgiref's one thread.

`sync_to_async` and channels' `database_sync_to_async` are thread-sensitive by default: every call of a worker
runs on one thread, one after the other, so 100 sockets' questions queue behind each other's round trips to the
database (the load test's answers/s stayed near 1 / the sum of a question's round trips). A call made here runs on
a pool thread with its own connection (from the pool, PostgreSQL; SQLite's busy timeout orders writers), and is
closed when old before and after, as channels does. Only for self-contained calls: nothing that relies on a
connection or transaction another call opened.
"""
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from channels.db import database_sync_to_async

P = ParamSpec("P")
R = TypeVar("R")


def db_call(func: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`func` as a coroutine function that runs on a thread of the loop's pool, not the one thread-sensitive one."""
    return database_sync_to_async(func, thread_sensitive=False)
