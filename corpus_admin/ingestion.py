"""Ingestion: parse and chunk a file aside, then switch its source to the new version in one transaction."""
import datetime as dt
import hashlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from pathlib import PurePath

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from corpus_admin.corpus_state import corpus_version_bump
from corpus_admin.embeddings import embed_new_chunks
from corpus_admin.models import Audience, Chunk, Source, SourceStatus
from corpus_admin.parsing import RejectedFile, base_name
from corpus_admin.paths import BadPath, normal_path
from corpus_admin.sandbox import ChunkedFile, ParseOptions, parse_and_chunk
from corpus_admin.versions import NewSource, NewVersion, create_sources, past_chunks_tightened, switch_versions

logger = logging.getLogger(__name__)

ADDED, UPDATED, UNCHANGED, FAILED = "added", "updated", "unchanged", "failed"


@dataclass(frozen=True)
class IngestResult:
    """What one file's ingest did; `path` is the file's key (its path, or a single file's name)."""

    path: str
    outcome: str
    source_id: int | None = None
    version: int | None = None
    chunk_count: int = 0
    error: str = ""

    @property
    def failed(self) -> bool:
        return self.outcome == FAILED


def max_upload_bytes() -> int:
    """The upload cap in bytes, read from settings at call time."""
    return settings.RAG_MAX_UPLOAD_MB * 1024 * 1024


def ingest_file(
    *,
    file_name: str,
    content: bytes,
    path: str | None = None,
    audience: str | None = None,
    title: str | None = None,
    document_date: dt.date | None = None,
    force: bool = False,
) -> IngestResult:
    """Ingest one file as a new source or a new version of the source with the same key.

    The key is `path`, the file's path relative to the folder or archive it came from (`ref/models/fields.txt`);
    a file on its own (no `path`) is keyed by its name. `file_name` is kept as the source's original name (its last
    part only: a client may send a whole path). Same content as the served version is a no-op unless `force`; a
    failure records its reason on an existing source and leaves the served version untouched; a rejected new file
    stores nothing.
    """
    upload = Upload(file_name, content, path=path, audience=audience, title=title, document_date=document_date,
                    force=force)
    prepared = prepare_file(upload)
    if isinstance(prepared, IngestResult):
        return prepared
    try:
        # In a worker process with time and memory limits, so a hostile file fails alone (§2.5).
        parsed = parse_and_chunk(file_name=prepared.name, content=prepared.content, options=parse_options())
    except Exception as error:
        return parse_failed(prepared, error)
    return store_parsed([(prepared, parsed)])[0]


@dataclass(frozen=True)
class PreparedFile:
    """A file to parse: its key and own name, its source as read before parsing (None: a new one), its bytes and what
    to set on its source (None keeps what the source has)."""

    key: str
    name: str
    existing: Source | None
    content: bytes
    sha256: str
    audience: str | None
    title: str | None
    document_date: dt.date | None


@dataclass(frozen=True)
class Upload:
    """A file as it came: its name, bytes and path (None: a file on its own), what to set on its source (None keeps
    what the source has), and whether to parse it again when its source already serves this content."""

    file_name: str
    content: bytes
    _: KW_ONLY
    path: str | None = None
    audience: str | None = None
    title: str | None = None
    document_date: dt.date | None = None
    force: bool = False


def prepare_file(upload: Upload, *, known: Mapping[str, Source] | None = None) -> PreparedFile | IngestResult:
    """A file ready to parse, or its outcome when there is nothing to parse: a path that is no key or an unknown
    audience (failed), or the content its source serves (unchanged, unless `force`; its details are updated).

    `known`: the sources of a batch's keys, looked up together by the caller (a key not in it has none); None: the
    source is looked up here.
    """
    try:
        key, name = source_key(file_name=upload.file_name, path=upload.path)
    except BadPath as error:
        return IngestResult(upload.path or upload.file_name, FAILED, error=str(error))
    if upload.audience is not None and upload.audience not in Audience.values:
        return IngestResult(key, FAILED, error=f"{key}: unknown audience {upload.audience!r}")
    source = Source.objects.filter(path=key).first() if known is None else known.get(key)
    sha256 = hashlib.sha256(upload.content).hexdigest()
    if source and not upload.force and source.sha256 == sha256 and source.status == SourceStatus.READY:
        _update_details(source, audience=upload.audience, title=upload.title, document_date=upload.document_date)
        if source.last_error:  # the served content was uploaded again: an earlier failed upload no longer matters
            Source.objects.filter(pk=source.pk).update(last_error="")
        return IngestResult(key, UNCHANGED, source.pk, source.version, source.chunks.current().count())
    return PreparedFile(key, name, source, upload.content, sha256, upload.audience, upload.title, upload.document_date)


def parse_options() -> ParseOptions:
    """How sandbox.parse_and_chunk parses an upload, its limits read from settings now."""
    return ParseOptions(
        max_bytes=max_upload_bytes(),
        max_tokens=settings.RAG_CHUNK_TOKENS,
        overlap_tokens=settings.RAG_CHUNK_OVERLAP,
        timeout_s=settings.RAG_PARSE_TIMEOUT_S,
        memory_mb=settings.RAG_PARSE_MEMORY_MB,
        isolated=settings.RAG_PARSE_ISOLATION,
    )


def parse_failed(prepared: PreparedFile, error: Exception) -> IngestResult:
    """A file whose parse raised: its reason recorded on its source, if it has one (the served version stays)."""
    if isinstance(error, RejectedFile):  # the parsers name the file; the message names its path
        message = f"{prepared.key}: {error.reason}"
    else:
        logger.error("Ingest of %s failed", prepared.key, exc_info=error)
        message = f"{prepared.key}: ingest failed ({type(error).__name__}: {error})"
    return record_failure(prepared.existing, prepared.key, message)


def store_parsed(files: Sequence[tuple[PreparedFile, ChunkedFile]]) -> list[IngestResult]:
    """Store parsed files as their sources' new versions, in order: all in one transaction, or if that fails, each in
    one of its own, so that a file that cannot be stored fails alone with its reason and its source keeps serving the
    version it had (§2.5). A file with no text is refused."""
    results: list[IngestResult | None] = [None] * len(files)
    versions: list[tuple[int, NewVersion]] = []
    for position, (prepared, parsed) in enumerate(files):
        if parsed.drafts:
            versions.append((position, _new_version(prepared, parsed)))
        else:
            results[position] = parse_failed(prepared, RejectedFile(prepared.name, "no text to index"))
    # Before the switch and outside its transaction: the model's time never holds the database's write lock.
    embed_new_chunks(
        (version.title, draft.heading_path, draft.text, draft.sentences)
        for _, version in versions
        for draft in version.drafts
    )
    stored: list[tuple[Source, int]] | None = None
    if len(versions) > 1:
        try:
            stored = switch_versions([version for _, version in versions])
        except Exception:  # one file's write failed and took the batch with it: each again on its own
            logger.warning("Storing %d files in one transaction failed; storing each alone", len(versions),
                           exc_info=True)
    for index, (position, version) in enumerate(versions):
        if stored is not None:
            source, number = stored[index]
        else:
            try:
                [(source, number)] = switch_versions([version])
            except Exception as error:  # a failure part-way never leaves a half-switched source
                results[position] = parse_failed(files[position][0], error)
                continue
        new = version.existing is None or version.existing.version == 0  # a queued source's first version is added
        results[position] = IngestResult(version.key, ADDED if new else UPDATED, source.pk, number,
                                         len(version.drafts))
    return [result for result in results if result is not None]


def _new_version(prepared: PreparedFile, parsed: ChunkedFile) -> NewVersion:
    existing = prepared.existing
    return NewVersion(
        key=prepared.key,
        name=prepared.name,
        existing=existing,
        content=prepared.content,
        sha256=prepared.sha256,
        media_type=parsed.media_type,
        # A source queued before its first version has a placeholder title: the document's own wins over it.
        title=prepared.title or (existing.title if existing and existing.version else None) or parsed.title
        or _title_from_name(prepared.name),
        audience=prepared.audience,
        document_date=prepared.document_date,
        drafts=parsed.drafts,
    )


def source_key(*, file_name: str, path: str | None = None) -> tuple[str, str]:
    """A file's key and its own name: its normal path, or a file on its own's name; BadPath if the path is not one."""
    name = normal_path(base_name(file_name))
    return (name if path is None else normal_path(path)), name


def pending_sources(*, keys: Sequence[tuple[str, str]], audience: str | None = None) -> dict[str, Source]:
    """The sources queued files will become versions of, by key (keys and names as source_key gives them): the
    existing ones, and new ones with no version yet. Call inside a transaction; a few queries for any number of files.

    A new one is PENDING with version 0: no chunk, so neither the library, retrieval nor a chunk page shows it. One that
    was never served (its earlier attempts failed) is PENDING again.
    """
    names = dict(keys)
    sources = {source.path: source for source in Source.objects.filter(path__in=list(names))}
    never_served = [source.pk for source in sources.values() if source.version == 0]
    Source.objects.filter(pk__in=never_served).exclude(status=SourceStatus.PENDING).update(
        status=SourceStatus.PENDING, last_error="", changed_at=timezone.now()
    )
    for source in sources.values():
        if source.version == 0:
            source.status, source.last_error = SourceStatus.PENDING, ""
    new = [NewSource(key, names[key], _title_from_name(names[key]), audience or Audience.PUBLIC)
           for key in names if key not in sources]
    sources.update(create_sources(new, or_existing=True))
    return sources


def ingest_upload(
    *, file_name: str, size: int, read: Callable[[], bytes], path: str | None = None, **details
) -> IngestResult:
    """Ingest an uploaded file (keyed as ingest_file keys it), refusing one over the cap before reading it."""
    cap = max_upload_bytes()
    if size > cap:
        try:
            key, _ = source_key(file_name=file_name, path=path)
        except BadPath as error:
            return IngestResult(path or file_name, FAILED, error=str(error))
        existing = Source.objects.filter(path=key).first()
        return record_failure(existing, key, over_the_cap(key, size))
    return ingest_file(file_name=file_name, content=read(), path=path, **details)


def over_the_cap(key: str, size: int) -> str:
    """Why a file of that size is refused (check it against max_upload_bytes first)."""
    return f"{key}: the file is {size / 1_048_576:.1f} MB, over the {settings.RAG_MAX_UPLOAD_MB} MB limit"


def refuse_repeated_paths(files: Sequence[tuple[str, str]]) -> dict[int, IngestResult]:
    """Of one batch's files (its key: path, or a file on its own's name; how a message names the file), those whose
    key an earlier one has, by position, as failures naming both.

    The second file would otherwise silently become the first one's next version. The same name in two folders
    (`faq/index.txt`, `ref/index.txt`) is two keys; a key that is not a path is left for ingest_file to refuse.
    """
    first: dict[str, str] = {}
    refused: dict[int, IngestResult] = {}
    for position, (raw, label) in enumerate(files):
        try:
            key = normal_path(raw)
        except BadPath:
            continue
        if key in first:
            message = f"{label}: same path as {first[key]}; each path may come only once"
            refused[position] = IngestResult(key, FAILED, error=message)
        else:
            first[key] = label
    return refused


def reingest_source(source: Source) -> IngestResult:
    """Ingest the latest stored upload of a source again as a new version."""
    upload = source.uploads.first()
    if upload is None:
        return IngestResult(source.path, FAILED, source.pk, error=f"{source.path}: no stored upload")
    return ingest_file(
        file_name=source.original_name,
        path=source.path,
        content=bytes(upload.content),
        document_date=upload.document_date,
        force=True,
    )


def withdraw_source(source: Source) -> None:
    """Withdraw a source: its chunks stay readable at their URLs but are never retrieved again."""
    with transaction.atomic():
        now = timezone.now()
        Source.objects.filter(pk=source.pk).update(status=SourceStatus.WITHDRAWN, changed_at=now)
        Chunk.objects.filter(source_id=source.pk, withdrawn_at__isnull=True).update(withdrawn_at=now)
        corpus_version_bump()
    source.refresh_from_db()


def update_source_details(
    source: Source, *, title: str | None = None, audience: str | None = None, updated_on: dt.date | None = None
) -> None:
    """Change a source's title, audience or date; the corpus version changes with it."""
    _update_details(source, audience=audience, title=title, document_date=updated_on)


def _update_details(
    source: Source, *, audience: str | None, title: str | None, document_date: dt.date | None
) -> None:
    changes = {
        field: value
        for field, value in (("audience", audience), ("title", title), ("updated_on", document_date))
        if value is not None and getattr(source, field) != value
    }
    if not changes:
        return
    with transaction.atomic():
        new_audience = changes.pop("audience", None)
        if isinstance(new_audience, str):
            _set_audience(source, new_audience)
        Source.objects.filter(pk=source.pk).update(**changes, changed_at=timezone.now())
        corpus_version_bump()
    source.refresh_from_db()


def _set_audience(source: Source, audience: str) -> None:
    """Give a source an audience: its served chunks take it, its other versions only when it is stricter.

    So an old version keeps the audience it was served under when its source is opened up, while restricting a source
    restricts every version. Call inside the transaction that makes the change.
    """
    Chunk.objects.filter(source_id=source.pk).current().update(audience=audience)
    past_chunks_tightened([source.pk], audience)
    Source.objects.filter(pk=source.pk).update(audience=audience)
    source.audience = audience


def record_failure(existing: Source | None, key: str, message: str) -> IngestResult:
    """A file's failure: its reason on its source, if it has one (which goes on serving what it served)."""
    if existing is not None:
        Source.objects.filter(pk=existing.pk).update(last_error=message, changed_at=timezone.now())
    return IngestResult(key, FAILED, existing.pk if existing else None, error=message)


def _title_from_name(name: str) -> str:
    return PurePath(name).stem.replace("-", " ").replace("_", " ").strip().capitalize() or name
