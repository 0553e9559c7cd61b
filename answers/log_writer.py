"""Log rows written together: the rows of the answers that end while a write is under way go in the next write,
one database call and one transaction for all of them (group commit), and each answer still waits until its own row
is stored, as when it wrote it alone.

Under load most answers end while another's row is being written, so a worker makes one thread hop, one commit and
one multi-row INSERT per batch rather than per answer (a profiled worker spent about as long on each answer's log
INSERT and its hop as on the pipeline's retrieval). A lone row is written exactly as before, by `services.log_answer`;
a batch that fails is written again row by row, so one unstorable row fails alone, with its own error.
"""
import asyncio
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from answers.dbcalls import db_call

Item = tuple[Any, dict[str, Any]]  # one row: what `log_answer` takes (the summary, then its keyword arguments)
WriteOne = Callable[..., object]
WriteMany = Callable[[Sequence[Item]], list[BaseException | None]]


class LogWriter:
    """Writes rows for one event loop: a lone row with `write_one`, several with `write_many` (one call each)."""

    def __init__(self, write_one: WriteOne, write_many: WriteMany) -> None:
        self._write_one = write_one
        self._write_many = write_many
        self._queue: list[tuple[Item, asyncio.Future]] = []
        self._writing: asyncio.Task | None = None

    async def write(self, summary: Any, **fields: Any) -> None:
        """Store one row; return once it is stored, or raise what storing it raised. The row is stored even if the
        caller stops waiting (cancelled), as a database call already under way would be."""
        future = asyncio.get_running_loop().create_future()
        self._queue.append(((summary, fields), future))
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._drain())
        await future

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            items = [item for item, _ in batch]
            try:
                if len(items) == 1:
                    summary, fields = items[0]
                    await db_call(self._write_one)(summary, **fields)
                    outcomes: list[BaseException | None] = [None]
                else:
                    outcomes = await db_call(self._write_many)(items)
            except Exception as error:  # noqa: BLE001  (each waiting answer gets it, as its own call would have)
                outcomes = [error] * len(items)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # its answer stopped waiting
                    continue
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)


_writers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def log_writer(write_one: WriteOne, write_many: WriteMany) -> LogWriter:
    """The running event loop's writer (futures and tasks belong to one loop)."""
    loop = asyncio.get_running_loop()
    writer = _writers.get(loop)
    if writer is None or writer._write_one is not write_one or writer._write_many is not write_many:
        writer = _writers[loop] = LogWriter(write_one, write_many)
    return writer
