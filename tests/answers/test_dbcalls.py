"""Database calls from async code run side by side on the loop's pool, not one after another on one thread."""
import asyncio
import threading

import pytest

from answers.dbcalls import db_call


@pytest.mark.asyncio
async def test_two_calls_run_at_once():
    both_in = threading.Barrier(2, timeout=5)  # on one shared thread the first would wait here for ever (5 s)

    def meet() -> str:
        both_in.wait()
        return threading.current_thread().name

    names = await asyncio.gather(db_call(meet)(), db_call(meet)())
    assert len(set(names)) == 2
