"""The corpus version: changes in the same transaction as every change to what is served."""
from django.db import transaction
from django.db.models import F

from corpus_admin.models import CorpusState

_ROW = 1


def corpus_version() -> int:
    """Return the current corpus version (0 before anything was ever ingested)."""
    row = CorpusState.objects.filter(pk=_ROW).values_list("version", flat=True).first()
    return row or 0


def corpus_version_bump() -> None:
    """Advance the corpus version; call inside the transaction that changes what is served."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("corpus_version_bump() must run inside the transaction that changes the corpus.")
    CorpusState.objects.get_or_create(pk=_ROW)
    CorpusState.objects.filter(pk=_ROW).update(version=F("version") + 1)
