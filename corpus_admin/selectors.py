"""Reads of the corpus; the one place where rows become pipeline dataclasses."""
from collections.abc import Iterator

from answers.pipeline.records import ChunkRecord
from corpus_admin.models import Chunk, Source
from corpus_admin.visibility import EVERYONE


def chunk_records(*, audiences: tuple[str, ...] = EVERYONE, batch_size: int = 2000) -> Iterator[ChunkRecord]:
    """Yield every served chunk visible to the given audiences, ordered by chunk id."""
    rows = (
        Chunk.objects.current()
        .for_audiences(audiences)
        .order_by("chunk_id")
        .values_list(
            "chunk_id",
            "source_id",
            "source__title",
            "source__original_name",
            "source__audience",
            "source__updated_on",
            "heading_path",
            "line_start",
            "line_end",
            "text",
            "token_count",
            "fingerprint",
        )
    )
    for row in rows.iterator(chunk_size=batch_size):
        (chunk_id, source_id, title, name, audience, updated_on, heading, start, end, text, tokens, fp) = row
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
        )


def chunk_visible(*, chunk_id: str, audiences: tuple[str, ...]) -> Chunk | None:
    """Return the chunk (any version) if it exists and its source is visible to the audiences."""
    return Chunk.objects.select_related("source").filter(chunk_id=chunk_id, source__audience__in=audiences).first()


def chunk_neighbours(chunk: Chunk) -> tuple[Chunk | None, Chunk | None]:
    """The previous and next chunk of the same source version."""
    siblings = Chunk.objects.filter(source_id=chunk.source_id, version=chunk.version)
    previous = siblings.filter(ordinal__lt=chunk.ordinal).order_by("-ordinal").first()
    following = siblings.filter(ordinal__gt=chunk.ordinal).order_by("ordinal").first()
    return previous, following


def chunk_current_version(chunk: Chunk) -> Chunk | None:
    """The served chunk that replaces a superseded one: same ordinal if it exists, else the first."""
    source: Source = chunk.source
    if source.is_withdrawn or chunk.version == source.version:
        return None
    served = Chunk.objects.filter(source_id=source.pk, version=source.version)
    return served.filter(ordinal=chunk.ordinal).first() or served.order_by("ordinal").first()
