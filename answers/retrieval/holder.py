"""The process-wide retrieval index: built from the corpus selector, swapped for a new one when the corpus changes.

`current_index()` returns an immutable `IndexSnapshot`. The first call builds one (or loads the copy a previous
worker saved for the same corpus). Later calls read the corpus stamp (one single-row query); when it changed, one
background thread makes a new snapshot while callers keep getting the previous one, and the new one replaces it
with a single attribute assignment. A question holds its snapshot for its whole run, so it never mixes versions.
A new snapshot is the previous one updated (the changed sources read and indexed again, the rest reused) unless
much of the corpus changed; then it is built afresh.

When the snapshot being replaced is small (fewer than `inline_below` chunks, e.g. the demo corpus or a test's few
documents) the rebuild takes milliseconds and runs in the calling thread instead, so a question asked right
after an upload already sees it.
"""
import dataclasses
import gc
import logging
import threading
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connections

from answers.pipeline.records import ChunkRecord, indexed_text
from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.dense import DenseIndex
from answers.pipeline.retrieve.update import updated_index
from answers.pipeline.text.tokens import TokenizerConfig, tokenize
from answers.retrieval.store import default_store_dir, index_path, load_index, save_index
from corpus_admin.corpus_state import Stamp, corpus_stamp
from corpus_admin.embeddings import chunk_vectors
from corpus_admin.selectors import chunk_records, served_sources

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class IndexSnapshot:
    """One corpus version's index and the records its hits resolve to; never changes once built."""

    version: int
    bm25: Bm25Index
    records: Mapping[str, ChunkRecord]
    tokenizer: TokenizerConfig = TokenizerConfig()
    stamp: Stamp = (0, "")
    sources: Mapping[int, Hashable] | None = None  # what each source's records depend on, for the next update
    dense: DenseIndex | None = None  # the chunks that have a vector (None: embeddings off or not installed)


def tokenizer_from_settings() -> TokenizerConfig:
    """The tokenizer the site indexes and queries with (RAG_STOPWORDS, RAG_STEMMING)."""
    return TokenizerConfig(stopwords=settings.RAG_STOPWORDS, stem=settings.RAG_STEMMING)


class IndexHolder:
    """Holds the current snapshot and rebuilds it, at most one build at a time."""

    def __init__(
        self,
        *,
        store_dir: Path | Callable[[], Path] | None = default_store_dir,
        tokenizer: Callable[[], TokenizerConfig] = tokenizer_from_settings,
        read_stamp: Callable[[], Stamp] = corpus_stamp,
        read_records: Callable[[], Iterable[ChunkRecord]] = chunk_records,
        read_sources: Callable[[], Mapping[int, Hashable]] | None = None,
        read_source_records: Callable[[Collection[int]], Iterable[ChunkRecord]] | None = None,
        read_vectors: Callable[[Iterable[ChunkRecord]], Mapping[str, np.ndarray]] = chunk_vectors,
        inline_below: int = 2000,
        max_update_share: float = 0.25,
        persist_from: int = 1000,
        retry_after: float = 30.0,
    ) -> None:
        self._store_dir = store_dir
        self._tokenizer = tokenizer
        self._read_stamp = read_stamp
        self._read_records = read_records
        self._read_sources = read_sources
        self._read_source_records = read_source_records
        self._read_vectors = read_vectors
        self.inline_below = inline_below
        self.max_update_share = max_update_share  # more changed chunks than this share of the corpus: build afresh
        self.persist_from = persist_from
        self.retry_after = retry_after
        self._snapshot: IndexSnapshot | None = None
        self._build_lock = threading.Lock()  # one build at a time, background or not
        self._start_lock = threading.Lock()  # guards _worker
        self._worker: threading.Thread | None = None
        self._failed_at: float | None = None
        self.builds = 0  # snapshots built or loaded, for tests and diagnostics
        self.updates = 0  # of which updated from the previous snapshot

    @property
    def snapshot(self) -> IndexSnapshot | None:
        """The snapshot callers currently get, without checking the corpus."""
        return self._snapshot

    def current(self) -> IndexSnapshot:
        """The snapshot to answer with; starts a rebuild when the corpus changed since it was built."""
        return self.current_checked()[0]

    def current_checked(self) -> tuple[IndexSnapshot, bool]:
        """`current()`, and whether that snapshot is the corpus as served when this call read its version (False
        while a background rebuild catches up): then its records are exactly the served chunks, with their
        audiences, since every change to either changes the version."""
        snapshot = self._snapshot
        if snapshot is None:
            with self._build_lock:
                if self._snapshot is None:
                    self._snapshot = self._build()
                    settle_heap()
                return self._snapshot, True
        if snapshot.stamp == self._read_stamp() and snapshot.tokenizer == self._tokenizer():
            return snapshot, True
        if len(snapshot.records) < self.inline_below:
            return self._rebuild_if_stale(), True
        self._start_background_rebuild()
        return snapshot, False

    def refresh_now(self) -> IndexSnapshot:
        """Build a snapshot of the corpus as it is now and make it current (waits for a running build)."""
        with self._build_lock:
            self._snapshot = snapshot = self._build()
        settle_heap()
        return snapshot

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait for a background rebuild to finish; False if it is still running after timeout seconds."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)
            return not worker.is_alive()
        return True

    @property
    def rebuilding(self) -> bool:
        """Whether a background rebuild is running."""
        worker = self._worker
        return worker is not None and worker.is_alive()

    def _rebuild_if_stale(self) -> IndexSnapshot:
        updated, built = None, False
        with self._build_lock:
            snapshot = self._snapshot
            if snapshot is None or snapshot.stamp != self._read_stamp() or snapshot.tokenizer != self._tokenizer():
                updates = self.updates
                self._snapshot = snapshot = self._build(previous=snapshot)
                updated = snapshot if self.updates > updates else None
                built = True
        if built:
            settle_heap()
        if updated is not None and self._snapshot is updated:
            # After the swap and outside the lock: saving a large index takes longer than updating it, and the
            # next change must not wait for it.
            self._persist(updated)
        return snapshot

    def _start_background_rebuild(self) -> None:
        with self._start_lock:
            if self._worker is not None and self._worker.is_alive():
                return
            if self._failed_at is not None and time.monotonic() - self._failed_at < self.retry_after:
                return
            self._worker = threading.Thread(target=self._rebuild_in_background, name="rag-index-rebuild", daemon=True)
            self._worker.start()

    def _rebuild_in_background(self) -> None:
        try:
            self._rebuild_if_stale()
            self._failed_at = None
        except Exception:
            self._failed_at = time.monotonic()
            logger.exception("Rebuilding the retrieval index failed; answering from the previous snapshot")
        finally:
            connections.close_all()  # this thread's own connections

    def _build(self, previous: IndexSnapshot | None = None) -> IndexSnapshot:
        """Build (or load) a snapshot, updating the previous one when only a few sources changed since it.

        The stamp is read before anything else, so a change made meanwhile only causes one more rebuild, never a
        snapshot labelled newer than its content.
        """
        config = self._tokenizer()
        stamp = self._read_stamp()
        sources = self._read_sources() if self._read_sources is not None else None
        if (
            previous is not None
            and previous.sources is not None
            and sources is not None
            and previous.tokenizer == config
            and (updated := self._update(previous, stamp, sources)) is not None
        ):
            return updated
        records = _light_records(self._read_records())
        path = self._store_path(stamp, records, config)
        bm25 = load_index(path, records) if path is not None else None
        if bm25 is None:
            bm25 = Bm25Index.build(
                (record.chunk_id, record.audience, tokenize(indexed_text(record), config))
                for record in records.values()
            )
            if path is not None:
                save_index(bm25, path)
        dense = self._dense(records.values())
        self.builds += 1
        return IndexSnapshot(
            version=stamp[0], bm25=bm25, records=records, tokenizer=config, stamp=stamp, sources=sources, dense=dense
        )

    def _update(
        self, previous: IndexSnapshot, stamp: Stamp, sources: Mapping[int, Hashable]
    ) -> IndexSnapshot | None:
        """The previous snapshot with the changed sources' chunks read and indexed again; None when most changed.

        Only the changed sources are read and tokenized, so a worker with 100k chunks follows an upload or a
        withdrawal in well under the two seconds coherence allows (a full build takes half a minute).
        """
        if previous.sources is None or self._read_source_records is None:
            return None  # nothing to compare with, or no way to read a source alone: build afresh
        changed = {s for s in previous.sources.keys() | sources.keys() if previous.sources.get(s) != sources.get(s)}
        removed = [chunk_id for chunk_id, record in previous.records.items() if record.source_id in changed]
        if len(removed) > self.max_update_share * len(previous.records):
            return None
        wanted = changed & sources.keys()
        added = _light_records(self._read_source_records(wanted)) if wanted else {}
        if len(removed) + len(added) > self.max_update_share * len(previous.records):
            return None
        bm25 = updated_index(
            previous.bm25,
            removed=removed,
            added=[(r.chunk_id, r.audience, tokenize(indexed_text(r), previous.tokenizer)) for r in added.values()],
        )
        kept = (item for item in previous.records.items() if item[1].source_id not in changed)
        records = dict(sorted((*kept, *added.items())))  # chunk-id order, as a full build reads them
        dense = previous.dense
        if dense is not None:
            vectors = self._read_vectors(added.values()) if added else {}
            dense = dense.updated(
                removed=removed, added=[(i, added[i].audience, vector) for i, vector in vectors.items()]
            )
        elif added:
            dense = self._dense(records.values())  # embeddings were off for the previous snapshot
        self.builds += 1
        self.updates += 1
        return IndexSnapshot(
            version=stamp[0], bm25=bm25, records=records, tokenizer=previous.tokenizer, stamp=stamp, sources=sources,
            dense=dense,
        )

    def _dense(self, records: Iterable[ChunkRecord]) -> DenseIndex | None:
        """The dense index of the records that have a vector; None when none has (embeddings off)."""
        listed = list(records)
        vectors = self._read_vectors(listed)
        if not vectors:
            return None
        by_id = {record.chunk_id: record for record in listed}
        return DenseIndex.build((chunk_id, by_id[chunk_id].audience, vector) for chunk_id, vector in vectors.items())

    def _persist(self, snapshot: IndexSnapshot) -> None:
        """Save an updated snapshot, so a worker starting on this corpus version loads it instead of building."""
        path = self._store_path(snapshot.stamp, snapshot.records, snapshot.tokenizer)
        if path is not None and not path.exists():
            save_index(snapshot.bm25, path)

    def _store_path(self, stamp: Stamp, records: Mapping[str, ChunkRecord], config: TokenizerConfig) -> Path | None:
        store = self._store_dir() if callable(self._store_dir) else self._store_dir
        if store is None or len(records) < self.persist_from:
            return None
        return index_path(Path(store), stamp=stamp, records=records.values(), config=config)


def settle_heap() -> None:
    """Collect once, then freeze what lives (the site's code, the current snapshot) when RAG_GC_FREEZE is on.

    Python's full collections walk every tracked object, and an index holds one record per chunk: under load those
    walks made the slowest answers. Frozen objects are skipped by the collector but still freed by reference
    counting, as a replaced snapshot's records are.
    """
    if settings.RAG_GC_FREEZE:
        gc.collect()
        gc.freeze()


def _light_records(records: Iterable[ChunkRecord]) -> dict[str, ChunkRecord]:
    """Records by chunk id, with the strings and tuples a source's chunks repeat shared instead of copied."""
    shared: dict[tuple, ChunkRecord] = {}
    headings: dict[tuple[str, ...], tuple[str, ...]] = {}
    light: dict[str, ChunkRecord] = {}
    for record in records:
        key = (record.source_id, record.source_title, record.original_name, record.audience, record.updated_on)
        first = shared.setdefault(key, record)
        heading_path = headings.setdefault(record.heading_path, record.heading_path)
        if first is not record or heading_path is not record.heading_path:
            record = dataclasses.replace(
                record,
                source_title=first.source_title,
                original_name=first.original_name,
                audience=first.audience,
                updated_on=first.updated_on,
                heading_path=heading_path,
            )
        light[record.chunk_id] = record
    return light


_holder = IndexHolder(read_sources=served_sources, read_source_records=lambda ids: chunk_records(source_ids=ids))


def index_holder() -> IndexHolder:
    """The process-wide holder (tests use it to wait for a background rebuild)."""
    return _holder


def current_index() -> IndexSnapshot:
    """The snapshot to answer a question with; hold on to it for the whole question."""
    return _holder.current()


def current_index_checked() -> tuple[IndexSnapshot, bool]:
    """`current_index()`, and whether it is the corpus as served now (`IndexHolder.current_checked`)."""
    return _holder.current_checked()


def refresh_now() -> IndexSnapshot:
    """Rebuild the process-wide index from the corpus now and make it current."""
    return _holder.refresh_now()
