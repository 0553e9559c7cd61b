"""Saved indexes on disk: a restarted worker loads the index a worker built for the same corpus instead of building.

A file is named by database, corpus version, file format, the tokenizer's fingerprint and a digest of the indexed
text, so an index written for other content or by other code is never loaded; older files are pruned.
"""
import datetime as dt
import hashlib
import logging
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from django.conf import settings
from django.db import connection

from answers.pipeline.records import ChunkRecord, indexed_text
from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.persist import INDEX_FORMAT, read_index, write_index
from answers.pipeline.text.tokens import TokenizerConfig, tokenizer_fingerprint
from corpus_admin.corpus_state import Stamp

logger = logging.getLogger(__name__)


def default_store_dir() -> Path:
    """Where built indexes are kept between worker starts: BASE_DIR/var/index."""
    return Path(settings.BASE_DIR) / "var" / "index"


def index_path(store: Path, *, stamp: Stamp, records: Iterable[ChunkRecord], config: TokenizerConfig) -> Path:
    """Where the index of these records at this corpus version is kept."""
    # The file format and the tokenizer's fingerprint are in the name: an index from other code is never loaded.
    code = f"f{INDEX_FORMAT}-t{tokenizer_fingerprint(config)}"
    return store / f"{_database_key()}-v{stamp[0]}-{code}-{_corpus_digest(records, config)}.npz"


def _database_key() -> str:
    details = connection.settings_dict
    identity = f"{details.get('ENGINE')}|{details.get('HOST') or ''}|{details.get('PORT') or ''}|{details.get('NAME')}"
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]


def _corpus_digest(records: Iterable[ChunkRecord], config: TokenizerConfig) -> str:
    """A hash of everything the index depends on: the tokenizer and each chunk's id, audience and indexed text."""
    digest = hashlib.sha256(repr(config).encode("utf-8"))
    for record in records:
        digest.update(f"\x00{record.chunk_id}\x00{record.audience}\x00{indexed_text(record)}".encode())
    return digest.hexdigest()[:24]


def load_index(path: Path, records: Mapping[str, ChunkRecord]) -> Bm25Index | None:
    """The saved index at path if it is whole and holds these records' count of chunks, else None."""
    if not path.exists():
        return None
    try:
        bm25 = read_index(path)
    except Exception as error:  # a partial or corrupt file: rebuild instead
        logger.warning("Ignoring unreadable index file %s (%s: %s)", path, type(error).__name__, error)
        return None
    if len(bm25) != len(records):
        logger.warning("Ignoring index file %s: it holds %d chunks, not %d", path, len(bm25), len(records))
        return None
    return bm25


def save_index(bm25: Bm25Index, path: Path) -> None:
    """Save the index (a failure is logged: the worker keeps answering from memory) and prune older files."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_index(bm25, path)
        _prune(path)
    except OSError as error:
        logger.warning("Could not save the index to %s (%s)", path, error)


def _prune(kept: Path, *, max_age: dt.timedelta = dt.timedelta(days=1)) -> None:
    """Delete this database's files for older versions, and any index file untouched for a day."""
    database, version = kept.name.split("-v")[0], int(kept.name.split("-v")[1].split("-")[0])
    cutoff = time.time() - max_age.total_seconds()
    for other in kept.parent.glob("*-v*.npz"):
        if other == kept:
            continue
        try:
            other_database, rest = other.name.split("-v", 1)
            older = other_database == database and int(rest.split("-")[0]) < version
            if older or other.stat().st_mtime < cutoff:
                other.unlink(missing_ok=True)
        except (ValueError, OSError):
            continue
