"""The corpus version: changes in the same transaction as every change to what is served."""
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from django.db import connection, transaction
from django.db.models import F

from corpus_admin.models import CorpusState

_ROW = 1


Stamp = tuple[int, str]

_read_already: ContextVar[Stamp | None] = ContextVar("corpus_stamp_read_already", default=None)


def corpus_stamp() -> Stamp:
    """The corpus version and when its row last changed: one single-row read, on every question (none inside
    `stamp_read_already`, whose caller read it with something else).

    Versions only grow in a running site, but a test rollback or a database reset can bring back a version number
    that already named other content; the row's time tells those apart. Plain SQL: the ORM's query building cost
    as much as the rest of a question's database work.
    """
    known = _read_already.get()
    if known is not None:
        return known
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(stamp_columns())}")
        return stamp_from(*cursor.fetchone())


def stamp_columns() -> tuple[str, str]:
    """The version and its row's time as two scalar subqueries, so a statement reading something else reads the
    stamp too (`stamp_from` makes the stamp of their values, NULL when there is no row yet)."""
    table = connection.ops.quote_name(CorpusState._meta.db_table)
    return (f"(SELECT version FROM {table} ORDER BY id LIMIT 1)",
            f"(SELECT changed_at FROM {table} ORDER BY id LIMIT 1)")


def stamp_from(version: int | None, changed_at: object) -> Stamp:
    """The stamp of the values `stamp_columns` read."""
    return (version or 0, str(changed_at or ""))


@contextlib.contextmanager
def stamp_read_already(stamp: Stamp) -> Iterator[None]:
    """Within (this thread or task only), `corpus_stamp()` is `stamp`, which the caller has just read in a statement
    of its own (one round trip fewer for a question)."""
    token = _read_already.set(stamp)
    try:
        yield
    finally:
        _read_already.reset(token)


def corpus_version_bump() -> None:
    """Advance the corpus version; call inside the transaction that changes what is served."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("corpus_version_bump() must run inside the transaction that changes the corpus.")
    CorpusState.objects.get_or_create(pk=_ROW)
    CorpusState.objects.filter(pk=_ROW).update(version=F("version") + 1)
