"""Database calls from async code run side by side on the loop's pool, not one after another on one thread."""
import asyncio
import threading

import pytest

from answers.dbcalls import db_call, side_by_side


@pytest.mark.asyncio
async def test_two_calls_run_at_once(monkeypatch):
    monkeypatch.setattr("answers.dbcalls.side_by_side", lambda: True)  # as on PostgreSQL
    both_in = threading.Barrier(2, timeout=5)  # on one shared thread the first would wait here for ever (5 s)

    def meet() -> str:
        both_in.wait()
        return threading.current_thread().name

    names = await asyncio.gather(db_call(meet)(), db_call(meet)())
    assert len(set(names)) == 2


@pytest.mark.asyncio
async def test_on_sqlite_calls_share_one_thread_so_writers_never_meet(monkeypatch):
    monkeypatch.setattr("answers.dbcalls.side_by_side", lambda: False)

    def name() -> str:
        return threading.current_thread().name

    names = await asyncio.gather(db_call(name)(), db_call(name)())
    assert len(set(names)) == 1 and not names[0].startswith("db-call")


def test_only_sqlite_is_kept_to_one_thread(settings):
    from django.db import connections

    assert side_by_side() is (connections["default"].vendor != "sqlite")
