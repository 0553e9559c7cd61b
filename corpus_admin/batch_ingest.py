"""Ingesting many files at once: parsed several at a time in parse workers, stored a batch per transaction.

The files go in batches of `batch_size`. A batch's sources are looked up in one query; its files are parsed in a
ParsePool (each parse with the limits of a single file's), while the batch before it is stored; then its parsed files
are stored as new versions in one transaction (a few queries for the whole batch). If that transaction fails, each
file is stored in one of its own, so a file that cannot be stored fails alone and its source keeps serving the version
it had (§2.5). The outcomes are those of `ingest_file`, file by file, in the order given.
"""
import contextlib
import datetime as dt
import os
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from corpus_admin.ingestion import (
    FAILED,
    IngestResult,
    PreparedFile,
    Upload,
    max_upload_bytes,
    over_the_cap,
    parse_failed,
    parse_options,
    prepare_file,
    record_failure,
    source_key,
    store_parsed,
)
from corpus_admin.models import Source
from corpus_admin.paths import BadPath
from corpus_admin.sandbox import ChunkedFile, ParsePool

BATCH_SIZE = 50  # files per transaction: past a few dozen, a bigger batch saves little and holds more in memory
MAX_PARSE_WORKERS = 4


@dataclass(frozen=True)
class FileToIngest:
    """A file to ingest: its name, its path in the folder or archive it came from (None: a file on its own, keyed by
    its name), its size, how to read it (not read when over the cap), and what to set on its source (None keeps it)."""

    file_name: str
    size: int
    read: Callable[[], bytes]
    path: str | None = None
    audience: str | None = None
    title: str | None = None
    document_date: dt.date | None = None
    force: bool = False


def default_parse_workers() -> int:
    """How many files to parse at once by default: one per processor, at most MAX_PARSE_WORKERS."""
    return max(1, min(os.cpu_count() or 1, MAX_PARSE_WORKERS))


def ingest_files(
    files: Sequence[FileToIngest],
    *,
    workers: int = 1,
    batch_size: int = BATCH_SIZE,
    on_result: Callable[[IngestResult], None] | None = None,
    pool: ParsePool | None = None,
) -> list[IngestResult]:
    """Ingest the files as ingest_file would one by one, `workers` parses at a time; each outcome in the order given,
    and passed to `on_result` as it is known. Each file's key must come once (refuse_repeated_paths).

    The parse workers are a pool of `workers` made for the call, or `pool`, kept by the caller for the next call."""
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    results: list[IngestResult | None] = [None] * len(files)

    def done(position: int, result: IngestResult) -> None:
        results[position] = result
        if on_result is not None:
            on_result(result)

    with (contextlib.nullcontext(pool) if pool else ParsePool(workers)) as parsers, \
            ThreadPoolExecutor(workers, thread_name_prefix="ingest-parse") as threads:
        parsing: deque[_Batch] = deque()
        for start in range(0, len(files), batch_size):
            parsing.append(_start(files[start:start + batch_size], start, parsers, threads, done))
            if len(parsing) > 1:  # the next batch parses while this one is stored
                _store(parsing.popleft(), done)
        while parsing:
            _store(parsing.popleft(), done)
    return [result for result in results if result is not None]


@dataclass(frozen=True)
class _Batch:
    """A batch's files being parsed: each one's position, what was prepared, and its parse."""

    parses: list[tuple[int, PreparedFile, Future[ChunkedFile]]]


def _start(
    files: Sequence[FileToIngest],
    offset: int,
    pool: ParsePool,
    threads: ThreadPoolExecutor,
    done: Callable[[int, IngestResult], None],
) -> _Batch:
    """Look up the batch's sources, settle the files with nothing to parse, and hand the rest to the parse workers."""
    keys: dict[int, str] = {}
    for position, file in enumerate(files, start=offset):
        try:
            keys[position] = source_key(file_name=file.file_name, path=file.path)[0]
        except BadPath as error:
            done(position, IngestResult(file.path or file.file_name, FAILED, error=str(error)))
    known = Source.objects.in_bulk(list(set(keys.values())), field_name="path")
    cap, options = max_upload_bytes(), parse_options()
    parses = []
    for position, file in enumerate(files, start=offset):
        if position not in keys:
            continue
        if file.size > cap:
            done(position, record_failure(known.get(keys[position]), keys[position], over_the_cap(keys[position],
                                                                                                  file.size)))
            continue
        upload = Upload(file.file_name, file.read(), path=file.path, audience=file.audience, title=file.title,
                        document_date=file.document_date, force=file.force)
        prepared = prepare_file(upload, known=known)
        if isinstance(prepared, IngestResult):
            done(position, prepared)
            continue
        parse = threads.submit(pool.parse_and_chunk, file_name=prepared.name, content=prepared.content, options=options)
        parses.append((position, prepared, parse))
    return _Batch(parses)


def _store(batch: _Batch, done: Callable[[int, IngestResult], None]) -> None:
    """Wait for the batch's parses, then store what parsed in one transaction (each alone if that fails)."""
    parsed: list[tuple[int, PreparedFile, ChunkedFile]] = []
    for position, prepared, parse in batch.parses:
        try:
            parsed.append((position, prepared, parse.result()))
        except Exception as error:
            done(position, parse_failed(prepared, error))
    stored = store_parsed([(prepared, chunked) for _, prepared, chunked in parsed])
    for (position, _, _), result in zip(parsed, stored, strict=True):
        done(position, result)
