"""The corpus version: changes in the same transaction as every change to what is served."""
from django.db import connection, transaction
from django.db.models import F

from corpus_admin.models import CorpusState

_ROW = 1


Stamp = tuple[int, str]


def corpus_stamp() -> Stamp:
    """The corpus version and when its row last changed: one single-row read, on every question.

    Versions only grow in a running site, but a test rollback or a database reset can bring back a version number
    that already named other content; the row's time tells those apart. Plain SQL: the ORM's query building cost
    as much as the rest of a question's database work.
    """
    table = connection.ops.quote_name(CorpusState._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version, changed_at FROM {table} ORDER BY id LIMIT 1")
        row = cursor.fetchone()
    if row is None:
        return (0, "")
    version, changed_at = row
    return (version or 0, str(changed_at or ""))


def corpus_version_bump() -> None:
    """Advance the corpus version; call inside the transaction that changes what is served."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("corpus_version_bump() must run inside the transaction that changes the corpus.")
    CorpusState.objects.get_or_create(pk=_ROW)
    CorpusState.objects.filter(pk=_ROW).update(version=F("version") + 1)
