"""Storing parsed files as their sources' next versions: new sources, uploads, chunks and the switch, in one
transaction for any number of files, so that a batch costs a few queries however many files it holds."""
import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from corpus_admin.chunking import ChunkDraft, stored_sentences
from corpus_admin.corpus_state import corpus_version_bump
from corpus_admin.models import Audience, Chunk, Source, SourceStatus, Upload
from corpus_admin.paths import slug_base
from corpus_admin.visibility import looser_audiences

_SOURCE_FIELDS = ["version", "sha256", "media_type", "title", "updated_on", "status", "last_error", "audience",
                  "changed_at"]


@dataclass(frozen=True)
class NewVersion:
    """A parsed file to store as the next version of the source with its key (`existing`: that source as read before
    parsing, None for a new one); `audience` None keeps the source's."""

    key: str
    name: str
    existing: Source | None
    content: bytes
    sha256: str
    media_type: str
    title: str
    audience: str | None
    document_date: dt.date | None
    drafts: tuple[ChunkDraft, ...]


@dataclass(frozen=True)
class NewSource:
    """A source to create: its key, its file's name, its title and audience; with no version, unless the version it
    serves from the start is given (its number, content hash, media type and date)."""

    key: str
    name: str
    title: str
    audience: str
    version: int = 0
    sha256: str = ""
    media_type: str = ""
    updated_on: dt.date | None = None

    def row(self, slug: str) -> Source:
        """The new source's row, with this slug."""
        return Source(slug=slug, path=self.key, original_name=self.name, title=self.title, audience=self.audience,
                      version=self.version, sha256=self.sha256, media_type=self.media_type,
                      updated_on=self.updated_on, status=SourceStatus.READY if self.version else SourceStatus.PENDING)


def chunk_id_for(slug: str, version: int, ordinal: int) -> str:
    """A chunk's permanent id, and so its page's address: `<slug>-v<version>-c<ordinal>`."""
    return f"{slug}-v{version}-c{ordinal:02d}"


def switch_versions(versions: Sequence[NewVersion]) -> list[tuple[Source, int]]:
    """Store each file as its source's next version and serve it, all in one transaction: every one or none.

    Each source is locked while it switches; the old version's chunks are marked superseded, never changed
    otherwise, and keep their audience unless the new one is stricter. Returns each file's source and new version.
    """
    with transaction.atomic():
        now = timezone.now()
        existing_ids = sorted({version.existing.pk for version in versions if version.existing})
        locked = {source.pk: source
                  for source in Source.objects.select_for_update().filter(pk__in=existing_ids).order_by("pk")}
        missing = [version.key for version in versions if version.existing and version.existing.pk not in locked]
        if missing:
            raise Source.DoesNotExist(f"{', '.join(missing)}: the source was deleted while its file was parsed")
        created = create_sources([  # made serving version 1 at once: no second write
            NewSource(version.key, version.name, version.title, version.audience or Audience.PUBLIC, version=1,
                      sha256=version.sha256, media_type=version.media_type, updated_on=_updated_on(version))
            for version in versions if version.existing is None
        ])
        sources = [locked[version.existing.pk] if version.existing else created[version.key] for version in versions]
        last = dict(
            Chunk.objects.filter(source_id__in=existing_ids).order_by().values_list("source_id")
            .annotate(last=Max("version")).values_list("source_id", "last")
        )
        numbers = [last.get(source.pk, 0) + 1 for source in sources]
        Upload.objects.bulk_create(
            Upload(source=source, original_name=version.name, content=version.content, sha256=version.sha256,
                   size=len(version.content), document_date=version.document_date, ingested_version=number)
            for version, source, number in zip(versions, sources, numbers, strict=True)
        )
        Chunk.objects.filter(source_id__in=existing_ids, superseded_at__isnull=True).update(superseded_at=now)
        Chunk.objects.bulk_create(
            _chunk(draft, source, number, version.audience or source.audience)
            for version, source, number in zip(versions, sources, numbers, strict=True)
            for draft in version.drafts
        )
        stricter: dict[str, list[int]] = defaultdict(list)  # audience -> sources whose past versions may tighten
        for version, source, number in zip(versions, sources, numbers, strict=True):
            if source.pk not in locked:
                continue
            if version.audience:
                stricter[version.audience].append(source.pk)
            source.version, source.sha256, source.media_type, source.title = (
                number, version.sha256, version.media_type, version.title
            )
            source.updated_on, source.audience = _updated_on(version), version.audience or source.audience
            source.status, source.last_error, source.changed_at = SourceStatus.READY, "", now
            # One update each: bulk_update's CASE per field and row cost more than the rest of the batch.
            Source.objects.filter(pk=source.pk).update(**{field: getattr(source, field) for field in _SOURCE_FIELDS})
        for audience, ids in stricter.items():  # after the old versions were superseded: they keep theirs if looser
            past_chunks_tightened(ids, audience)
        corpus_version_bump()
    return list(zip(sources, numbers, strict=True))


def _updated_on(version: NewVersion) -> dt.date:
    return version.document_date or timezone.localdate()


def past_chunks_tightened(source_ids: Sequence[int], audience: str) -> None:
    """Give the past versions of these sources this audience where theirs is looser (restricting a source restricts
    every version; opening it up leaves the old ones as they were served)."""
    Chunk.objects.filter(source_id__in=source_ids).past().filter(audience__in=looser_audiences(audience)).update(
        audience=audience
    )


def create_sources(new: Sequence[NewSource], *, or_existing: bool = False) -> dict[str, Source]:
    """Create these sources (with no version yet), by key: in one insert those whose slug is free, from their path
    (`ref-models-fields`); one at a time those that need a suffix, or when another upload took a path or slug
    meanwhile (a path it took: that source if `or_existing`, else RuntimeError). Call inside a transaction."""
    bases = {source.key: slug_base(source.key) for source in new}
    wanted: dict[str, int] = defaultdict(int)
    for base in bases.values():
        wanted[base] += 1
    taken = set(Source.objects.filter(slug__in=list(wanted)).values_list("slug", flat=True))
    free = [source for source in new if bases[source.key] not in taken and wanted[bases[source.key]] == 1]
    created: dict[str, Source] = {}
    if free:
        try:
            with transaction.atomic():
                rows = Source.objects.bulk_create(source.row(bases[source.key]) for source in free)
            created.update((row.path, row) for row in rows)
        except IntegrityError:  # another upload took one of the paths or slugs meanwhile: one at a time below
            pass
    for source in new:
        if source.key not in created:
            found = Source.objects.filter(path=source.key).first() if or_existing else None
            created[source.key] = found or create_source(source)
    return created


def create_source(new: NewSource) -> Source:
    """A new source, its slug from its path (`ref-models-fields`, or the first free `-2`, `-3`...)."""
    base = slug_base(new.key)
    for attempt in range(1, 1000):
        slug = base if attempt == 1 else f"{base}-{attempt}"
        if Source.objects.filter(slug=slug).exists():
            continue
        try:
            with transaction.atomic():
                row = new.row(slug)
                row.save(force_insert=True)
                return row
        except IntegrityError:
            if Source.objects.filter(path=new.key).exists():  # the same path, created by an ingest running beside this
                raise RuntimeError(f"{new.key} was added by another upload at the same time; upload it again") from None
            continue
    raise RuntimeError(f"no free slug for {new.key}")


def _chunk(draft: ChunkDraft, source: Source, version: int, audience: str) -> Chunk:
    return Chunk(
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
        audience=audience,
    )
