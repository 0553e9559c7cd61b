"""Reads of the corpus; the one place where rows become pipeline dataclasses."""
import datetime as dt
import uuid
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Max, Min, OuterRef, Q, QuerySet, Subquery, Sum

from answers.pipeline.evidence import instruction_ranges
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.sentences import sentence_spans as split_spans
from corpus_admin.models import Chunk, IngestJob, JobStatus, Source, SourceStatus


def chunk_records(*, source_ids: Collection[int] | None = None) -> Iterator[ChunkRecord]:
    """Yield every served chunk of every audience (of the given sources only), ordered by chunk id: the index's
    input, which keeps the audience on each record and filters per caller at search time."""
    served = Chunk.objects.current()
    if source_ids is not None:
        served = served.filter(source_id__in=list(source_ids))
    rows = (
        served
        .order_by("chunk_id")
        .values_list(
            "chunk_id",
            "source_id",
            "source__title",
            "source__original_name",
            "audience",
            "source__updated_on",
            "heading_path",
            "line_start",
            "line_end",
            "text",
            "token_count",
            "fingerprint",
            "source__path",
            "page",
            "sentences",
        )
    )
    for row in rows.iterator(chunk_size=2000):
        (chunk_id, source_id, title, name, audience, updated_on, heading, start, end, text, tokens, fp, path, page,
         sentences) = row
        yield ChunkRecord(
            chunk_id=chunk_id,
            source_id=source_id,
            source_title=title,
            original_name=name,
            audience=audience,
            updated_on=updated_on,
            heading_path=tuple(heading),
            line_start=start,
            line_end=end,
            text=text,
            token_count=tokens,
            fingerprint=fp,
            source_path=path,
            page=page,
            sentences=sentence_spans(sentences),
        )


def sentence_spans(stored: list[dict]) -> tuple[SentenceSpan, ...]:
    """A chunk's stored sentences as the pipeline's spans."""
    return tuple(
        SentenceSpan(start=item["start"], end=item["end"], line=item["line"], instruction=bool(item.get("instruction")),
                     list_item=item.get("list", ""), item=item.get("item", 0))
        for item in stored
    )


def served_sources() -> dict[int, tuple]:
    """Per source with served chunks, everything its chunks' records depend on: equal readings, equal records.

    The source's title, file name, audience and date go into every record; which chunks are served shows in their
    count, newest id and id sum (chunk rows never change, only their marks do). One query over sources, one
    grouped over the served chunks: cheap enough to run on every corpus change, whatever the corpus size.
    """
    served = list(
        Chunk.objects.current()
        .order_by()
        .values_list("source_id")
        .annotate(count=Count("id"), newest=Max("id"), total=Sum("id"))
    )
    # Read after the chunks: a source committed in between has no chunks counted, so nothing is missed here.
    facts = {
        pk: (title, name, audience, updated_on)
        for pk, title, name, audience, updated_on in Source.objects.values_list(
            "pk", "title", "original_name", "audience", "updated_on"
        )
    }
    return {source_id: (*facts[source_id], count, newest, total) for source_id, count, newest, total in served}


def source_paths() -> list[str]:
    """Every source's path (its key), withdrawn ones too: what a golden file's sources may name."""
    return list(Source.objects.order_by("path").values_list("path", flat=True))


# How many served chunks stored before sentences were kept one read may judge now: the rule takes about 50 µs a
# paragraph, so a page of sources with a synthetic 100k-chunk one in it would otherwise take over a minute.
JUDGE_AT_MOST = 1000


@dataclass(frozen=True)
class FlaggedSentences:
    """A source's served sentences flagged as instructions (§2.8): how many in each chunk that has any, and how many
    of its served chunks, stored before sentences were kept, were too many to judge now (their count is unknown)."""

    chunks: dict[str, int]
    not_computed: int = 0

    @property
    def count(self) -> int:
        return sum(self.chunks.values())


def instruction_sentences(*, source_ids: Collection[int]) -> dict[int, FlaggedSentences]:
    """Per source, its served chunks that hold sentences flagged as instructions: chunk id -> how many. Flags stored
    at ingestion are counted; a chunk stored before sentences were kept is judged now from its text by the same rule
    (as its page and the pipeline judge it), unless more than JUDGE_AT_MOST such chunks are asked about: those are
    counted as not computed. Sources with nothing to say are left out."""
    served = Chunk.objects.current().filter(source_id__in=list(source_ids)).order_by("source_id", "ordinal")
    unstored = served.filter(sentences=[])
    judge_now = unstored.count() <= JUDGE_AT_MOST
    # Only a flagged sentence stores the key, so the database hands over just the chunks that have one.
    flagged_rows = Q(sentences__icontains='"instruction"')
    if judge_now:
        flagged_rows |= Q(sentences=[])
    found: dict[int, dict[str, int]] = {}
    rows = served.filter(flagged_rows).values_list("source_id", "chunk_id", "sentences", "text")
    for source_id, chunk_id, sentences, text in rows.iterator(chunk_size=500):
        count = sum(1 for item in sentences if item.get("instruction")) if sentences else _flagged_now(text)
        if count:
            found.setdefault(source_id, {})[chunk_id] = count
    not_computed = {} if judge_now else dict(
        unstored.order_by().values_list("source_id").annotate(n=Count("id")).values_list("source_id", "n")
    )
    return {
        source_id: FlaggedSentences(found.get(source_id, {}), not_computed.get(source_id, 0))
        for source_id in sorted(set(found) | set(not_computed))
    }


def _flagged_now(text: str) -> int:
    """How many sentences of a text the instruction rule flags now: those overlapping a flagged paragraph."""
    flagged = instruction_ranges(text, ())
    if not flagged:
        return 0
    return sum(1 for start, end in split_spans(text) if any(a < end and start < b for a, b in flagged))


def library_sources(*, audiences: tuple[str, ...]) -> list[Source]:
    """The served sources the audiences may see, by title then path, each with `first_chunk_id`: its first passage."""
    first = (
        Chunk.objects.filter(source=OuterRef("pk"), version=OuterRef("version"), audience__in=audiences)
        .order_by("ordinal")
        .values("chunk_id")
    )
    return list(
        Source.objects.filter(audience__in=audiences, status=SourceStatus.READY, version__gt=0)
        .annotate(first_chunk_id=Subquery(first[:1]))
        .order_by("title", "path")
    )


def chunk_visible(*, chunk_id: str, audiences: tuple[str, ...]) -> Chunk | None:
    """Return the chunk (any version) if it exists and the audiences may see it: by its own audience, which an old
    version keeps when its source is opened up."""
    return Chunk.objects.select_related("source").filter(chunk_id=chunk_id, audience__in=audiences).first()


def chunk_neighbours(chunk: Chunk, *, audiences: tuple[str, ...]) -> tuple[Chunk | None, Chunk | None]:
    """The previous and next chunk of the same source version that the audiences may see."""
    siblings = Chunk.objects.filter(source_id=chunk.source_id, version=chunk.version, audience__in=audiences)
    previous = siblings.filter(ordinal__lt=chunk.ordinal).order_by("-ordinal").first()
    following = siblings.filter(ordinal__gt=chunk.ordinal).order_by("ordinal").first()
    return previous, following


def chunk_current_version(chunk: Chunk, *, audiences: tuple[str, ...]) -> Chunk | None:
    """The served chunk that replaces a superseded one, if the audiences may see it: same ordinal if it exists, else
    the first."""
    source: Source = chunk.source
    if source.is_withdrawn or chunk.version == source.version:
        return None
    served = Chunk.objects.filter(source_id=source.pk, version=source.version, audience__in=audiences)
    return served.filter(ordinal=chunk.ordinal).first() or served.order_by("ordinal").first()


@dataclass(frozen=True)
class BatchProgress:
    """How far the background ingest of one upload has come."""

    batch: uuid.UUID
    total: int
    done: int
    failed: int
    queued_at: dt.datetime

    @property
    def finished(self) -> bool:
        return self.done + self.failed == self.total


def ingest_batches(*, finished_since: dt.datetime, limit: int = 5) -> list[BatchProgress]:
    """The uploads still being ingested, and those whose last file finished since then, newest first."""
    unfinished_or_recent = Q(total__gt=F("done") + F("failed")) | Q(last_finished__gte=finished_since)
    rows = _batch_counts(IngestJob.objects.all()).filter(unfinished_or_recent).order_by("-first_queued")[:limit]
    return [_progress(row) for row in rows]


def ingest_batch(batch: uuid.UUID) -> BatchProgress | None:
    """The progress of one upload's background ingest, or None if no such upload was queued."""
    row = next(iter(_batch_counts(IngestJob.objects.filter(batch=batch))), None)
    return _progress(row) if row else None


def _batch_counts(jobs: QuerySet[IngestJob]) -> QuerySet[IngestJob, dict[str, Any]]:
    return (
        jobs.order_by()
        .values("batch")
        .annotate(
            total=Count("id"),
            done=Count("id", filter=Q(status=JobStatus.DONE)),
            failed=Count("id", filter=Q(status=JobStatus.FAILED)),
            first_queued=Min("queued_at"),
            last_finished=Max("finished_at"),
        )
    )


def _progress(row: dict[str, Any]) -> BatchProgress:
    return BatchProgress(row["batch"], row["total"], row["done"], row["failed"], row["first_queued"])


def chunk_source_paths(chunk_ids: Collection[str]) -> dict[str, str]:
    """Each chunk id's source path (its key), for chunks of any version: what a golden case names its sources by."""
    return dict(Chunk.objects.filter(chunk_id__in=chunk_ids).values_list("chunk_id", "source__path"))
