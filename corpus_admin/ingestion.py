"""Ingestion: parse and chunk a file aside, then switch its source to the new version in one transaction."""
import datetime as dt
import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from corpus_admin.chunking import ChunkDraft, stored_sentences
from corpus_admin.corpus_state import corpus_version_bump
from corpus_admin.models import Audience, Chunk, Source, SourceStatus, Upload
from corpus_admin.parsing import RejectedFile, base_name
from corpus_admin.paths import BadPath, normal_path, slug_base
from corpus_admin.sandbox import parse_and_chunk
from corpus_admin.visibility import looser_audiences

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
    try:
        key, name = source_key(file_name=file_name, path=path)
    except BadPath as error:
        return IngestResult(path or file_name, FAILED, error=str(error))
    if audience is not None and audience not in Audience.values:
        return IngestResult(key, FAILED, error=f"{key}: unknown audience {audience!r}")
    existing = Source.objects.filter(path=key).first()
    sha256 = hashlib.sha256(content).hexdigest()
    if existing and not force and existing.sha256 == sha256 and existing.status == SourceStatus.READY:
        _update_details(existing, audience=audience, title=title, document_date=document_date)
        if existing.last_error:  # the served content was uploaded again: an earlier failed upload no longer matters
            Source.objects.filter(pk=existing.pk).update(last_error="")
        return IngestResult(key, UNCHANGED, existing.pk, existing.version, existing.chunks.current().count())
    try:
        # In a worker process with time and memory limits, so a hostile file fails alone (§2.5).
        parsed = parse_and_chunk(
            file_name=name,
            content=content,
            max_bytes=max_upload_bytes(),
            max_tokens=settings.RAG_CHUNK_TOKENS,
            overlap_tokens=settings.RAG_CHUNK_OVERLAP,
            timeout_s=settings.RAG_PARSE_TIMEOUT_S,
            memory_mb=settings.RAG_PARSE_MEMORY_MB,
            isolated=settings.RAG_PARSE_ISOLATION,
        )
        drafts = parsed.drafts
        if not drafts:
            raise RejectedFile(name, "no text to index")
        source, version = _switch_version(
            key=key,
            name=name,
            existing=existing,
            content=content,
            sha256=sha256,
            media_type=parsed.media_type,
            # A source queued before its first version has a placeholder title: the document's own wins over it.
            title=title or (existing.title if existing and existing.version else None) or parsed.title
            or _title_from_name(name),
            audience=audience,
            document_date=document_date,
            drafts=drafts,
        )
    except RejectedFile as error:  # the parsers name the file; the message names its path
        return _record_failure(existing, key, f"{key}: {error.reason}")
    except Exception as error:  # a failure part-way must never leave a half-switched source
        logger.exception("Ingest of %s failed", key)
        return _record_failure(existing, key, f"{key}: ingest failed ({type(error).__name__}: {error})")
    outcome = UPDATED if existing and existing.version else ADDED  # a queued source's first version is added
    return IngestResult(key, outcome, source.pk, version, len(drafts))


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
    new = [key for key in names if key not in sources]
    bases = {key: slug_base(key) for key in new}
    wanted = Counter(bases.values())
    taken = set(Source.objects.filter(slug__in=list(wanted)).values_list("slug", flat=True))
    free = [key for key in new if bases[key] not in taken and wanted[bases[key]] == 1]  # the rest: a suffix each
    try:
        with transaction.atomic():
            created = Source.objects.bulk_create(
                Source(slug=bases[key], path=key, original_name=names[key], title=_title_from_name(names[key]),
                       audience=audience or Audience.PUBLIC)
                for key in free
            )
        sources.update((source.path, source) for source in created)
    except IntegrityError:  # another upload took one of the paths or slugs meanwhile: one at a time below
        pass
    for key in new:
        if key not in sources:
            sources[key] = Source.objects.filter(path=key).first() or _create_source(
                key=key, name=names[key], title=_title_from_name(names[key]), audience=audience or Audience.PUBLIC
            )
    return sources


def chunk_id_for(slug: str, version: int, ordinal: int) -> str:
    """A chunk's permanent id, and so its page's address: `<slug>-v<version>-c<ordinal>`."""
    return f"{slug}-v{version}-c{ordinal:02d}"


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
        return _record_failure(existing, key, over_the_cap(key, size))
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
    restricts every version. Every change of an audience comes here, inside the transaction that makes it.
    """
    chunks = Chunk.objects.filter(source_id=source.pk)
    chunks.current().update(audience=audience)
    chunks.past().filter(audience__in=looser_audiences(audience)).update(audience=audience)
    Source.objects.filter(pk=source.pk).update(audience=audience)
    source.audience = audience


def _switch_version(
    *,
    key: str,
    name: str,
    existing: Source | None,
    content: bytes,
    sha256: str,
    media_type: str,
    title: str,
    audience: str | None,
    document_date: dt.date | None,
    drafts: tuple[ChunkDraft, ...],
) -> tuple[Source, int]:
    with transaction.atomic():
        source = (
            Source.objects.select_for_update().get(pk=existing.pk)
            if existing
            else _create_source(key=key, name=name, title=title, audience=audience or Audience.PUBLIC)
        )
        now = timezone.now()
        last_version = source.chunks.order_by("-version").values_list("version", flat=True).first() or 0
        version = last_version + 1
        Upload.objects.create(
            source=source,
            original_name=name,
            content=content,
            sha256=sha256,
            size=len(content),
            document_date=document_date,
            ingested_version=version,
        )
        Chunk.objects.filter(source=source, superseded_at__isnull=True).update(superseded_at=now)
        Chunk.objects.bulk_create(
            [
                Chunk(
                    chunk_id=chunk_id_for(source.slug, version, draft.ordinal),
                    source=source,
                    version=version,
                    ordinal=draft.ordinal,
                    heading_path=list(draft.heading_path),
                    line_start=draft.line_start,
                    line_end=draft.line_end,
                    text=draft.text,
                    page=draft.page,
                    sentences=stored_sentences(draft.sentences),
                    token_count=draft.token_count,
                    fingerprint=draft.fingerprint,
                    audience=source.audience,
                )
                for draft in drafts
            ]
        )
        source.version = version
        source.sha256 = sha256
        source.media_type = media_type
        source.title = title
        source.updated_on = document_date or timezone.localdate()
        source.status = SourceStatus.READY
        source.last_error = ""
        source.save()
        if audience:  # after the old version was superseded: it keeps its audience unless this one is stricter
            _set_audience(source, audience)
        corpus_version_bump()
    return source, version


def _create_source(*, key: str, name: str, title: str, audience: str) -> Source:
    """A new source, its slug from its path (`ref-models-fields`); an existing source keeps the slug it has."""
    base = slug_base(key)
    for attempt in range(1, 1000):
        slug = base if attempt == 1 else f"{base}-{attempt}"
        if Source.objects.filter(slug=slug).exists():
            continue
        try:
            with transaction.atomic():
                return Source.objects.create(slug=slug, path=key, original_name=name, title=title, audience=audience)
        except IntegrityError:
            if Source.objects.filter(path=key).exists():  # the same path, created by an ingest running beside this
                raise RuntimeError(f"{key} was added by another upload at the same time; upload it again") from None
            continue
    raise RuntimeError(f"no free slug for {key}")


def _record_failure(existing: Source | None, key: str, message: str) -> IngestResult:
    if existing is not None:
        Source.objects.filter(pk=existing.pk).update(last_error=message, changed_at=timezone.now())
    return IngestResult(key, FAILED, existing.pk if existing else None, error=message)


def _title_from_name(name: str) -> str:
    return PurePath(name).stem.replace("-", " ").replace("_", " ").strip().capitalize() or name
