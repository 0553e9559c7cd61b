"""Database calls from async code run side by side on the loop's pool, not one after another on one thread."""
import asyncio
import threading

import pytest

from answers.dbcalls import db_call, side_by_side


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_two_calls_run_at_once(monkeypatch, settings):
    settings.RAG_DB_THREADS = 4
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


def test_calls_share_one_thread_unless_threads_are_set_and_the_database_is_not_sqlite(settings):
    from django.db import connections

    assert side_by_side() is False  # RAG_DB_THREADS defaults to 0
    settings.RAG_DB_THREADS = 4
    assert side_by_side() is (connections["default"].vendor != "sqlite")
