"""One upload of many files: plain files keyed by their names, and the files of each .zip archive by their paths in
it, every one queued for the ingest worker on its own (the same checks, the same sandbox) with a result of its own."""
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.conf import settings

from corpus_admin.archives import ArchiveError, ArchiveMember, expand_zip, is_zip_name, other_archive_kind
from corpus_admin.ingestion import IngestResult, refuse_repeated_paths
from corpus_admin.parsing import base_name
from corpus_admin.paths import file_name_of
from corpus_admin.tasks import IncomingFile, IngestDetails, enqueue_ingest, job_results

_MB = 1024 * 1024


@dataclass(frozen=True)
class Incoming:
    """One uploaded file as received: its name (a browser sends no folder path), its size and how to read it."""

    name: str
    size: int
    read: Callable[[], bytes]


@dataclass(frozen=True)
class ArchiveOutcome:
    """What an archive's upload did: a result per file, the files skipped for their type, or why it was refused."""

    name: str
    results: tuple[IngestResult, ...] = ()
    skipped: tuple[str, ...] = ()
    error: str = ""


@dataclass(frozen=True)
class _Entry:
    file_name: str
    path: str | None  # None: a plain file, keyed by its name
    label: str  # how a refusal names it
    size: int
    read: Callable[[], bytes]
    upload: int  # position among the uploaded files (its archive's, for a member)


def queue_incoming(
    files: Sequence[Incoming],
    *,
    audience: str | None = None,
    title: str | None = None,
    document_date: dt.date | None = None,
) -> list[IngestResult | ArchiveOutcome]:
    """Queue an upload's files for the ingest worker (corpus_admin/tasks.py) and return before any is parsed; one
    outcome per uploaded file, in order: an archive's has a result per file in it.

    A file's result is QUEUED while the worker has yet to finish it (with the immediate task backend it is already
    ingested: its result is final). `title` is used only when the upload is a single plain file. A path that comes
    twice (two files, an archive and a file, two archives) is refused after its first, naming both; an archive refused
    as a whole queues nothing.
    """
    archives: dict[int, ArchiveOutcome] = {}
    entries: list[_Entry] = []
    for position, incoming in enumerate(files):
        if is_zip_name(incoming.name) or other_archive_kind(incoming.name):
            archives[position], members = _open_archive(incoming)
            entries.extend(
                _Entry(file_name_of(member.path), member.path, f"{member.path} in {incoming.name}",
                       len(member.content), _reader(member.content), position)
                for member in members
            )
        else:
            label = f"{incoming.name} (file {position + 1})" if len(files) > 1 else incoming.name
            entries.append(_Entry(incoming.name, None, label, incoming.size, incoming.read, position))
    single_title = title if len(files) == 1 and not archives else None
    refused = refuse_repeated_paths([(entry.path or base_name(entry.file_name), entry.label) for entry in entries])
    wanted = [position for position in range(len(entries)) if position not in refused]
    queued = enqueue_ingest(
        files=[IncomingFile(e.file_name, e.path, e.size, e.read) for e in (entries[p] for p in wanted)],
        details=IngestDetails(audience=audience, title=single_title, document_date=document_date),
    )
    outcome_of = {**refused, **dict(zip(wanted, job_results(queued.job_ids), strict=True))}
    results: dict[int, list[IngestResult]] = {}
    for position, entry in enumerate(entries):
        results.setdefault(entry.upload, []).append(outcome_of[position])
    return [
        replace(archives[position], results=tuple(results.get(position, ()))) if position in archives
        else results[position][0]
        for position in range(len(files))
    ]


def _open_archive(incoming: Incoming) -> tuple[ArchiveOutcome, tuple[ArchiveMember, ...]]:
    """The archive's files to ingest, or its refusal: another kind of archive, or one expand_zip refuses."""
    other = other_archive_kind(incoming.name)
    if other and not is_zip_name(incoming.name):
        error = f"{incoming.name}: a {other} archive; folders can be uploaded as .zip archives only"
        return ArchiveOutcome(incoming.name, error=error), ()
    try:
        expanded = expand_zip(
            name=incoming.name,
            data=incoming.read(),  # no bigger than the request, which is capped (RAG_MAX_REQUEST_MB)
            max_files=settings.RAG_MAX_ARCHIVE_FILES,
            max_bytes=settings.RAG_MAX_ARCHIVE_MB * _MB,
        )
    except ArchiveError as error:
        return ArchiveOutcome(incoming.name, error=str(error)), ()
    return ArchiveOutcome(incoming.name, skipped=expanded.skipped), expanded.members


def _reader(content: bytes) -> Callable[[], bytes]:
    return lambda: content
