"""Log rows of answers that end together are written together, and each answer still learns how its own row went."""
import asyncio

import pytest

from answers.log_writer import LogWriter

pytestmark = pytest.mark.asyncio


class Store:
    """A log that records each call it gets; rows named "bad" fail alone."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def one(self, summary: str, **fields) -> None:
        self.calls.append([summary])
        if summary == "bad":
            raise ValueError("unstorable")

    def many(self, items) -> list[BaseException | None]:
        self.calls.append([summary for summary, _ in items])
        return [ValueError("unstorable") if summary == "bad" else None for summary, _ in items]


async def test_a_lone_row_is_written_alone_with_its_fields():
    seen = []
    writer = LogWriter(lambda summary, **fields: seen.append((summary, fields)), Store().many)

    await writer.write("answer", channel="ws")

    assert seen == [("answer", {"channel": "ws"})]


async def test_rows_of_answers_ending_while_a_write_is_under_way_go_in_the_next_write_together():
    store = Store()
    writer = LogWriter(store.one, store.many)

    await asyncio.gather(*(writer.write(f"answer {n}") for n in range(5)))
    await writer.write("later")

    assert store.calls == [["answer 0", "answer 1", "answer 2", "answer 3", "answer 4"], ["later"]]


async def test_an_unstorable_row_fails_its_own_answer_only():
    store = Store()
    writer = LogWriter(store.one, store.many)

    outcomes = await asyncio.gather(writer.write("good"), writer.write("bad"), writer.write("fine"),
                                    return_exceptions=True)

    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], ValueError)


async def test_a_write_that_breaks_fails_every_answer_of_its_batch_and_the_next_batch_is_written():
    store = Store()

    def broken(items):
        raise ConnectionError("database went away")

    writer = LogWriter(store.one, broken)
    outcomes = await asyncio.gather(writer.write("a"), writer.write("b"), return_exceptions=True)
    await writer.write("c")

    assert [type(outcome) for outcome in outcomes] == [ConnectionError, ConnectionError]
    assert store.calls == [["c"]]


async def test_a_row_is_stored_even_when_its_answer_stops_waiting():
    store = Store()
    writer = LogWriter(store.one, store.many)
    waiting = asyncio.create_task(writer.write("cut off"))
    await asyncio.sleep(0)  # a turn of the loop (no time passes): the row is queued

    waiting.cancel()
    await writer.write("next")

    assert waiting.cancelled()
    assert "cut off" in [summary for call in store.calls for summary in call]
