"""Factories for pipeline values: a ChunkRecord with plain defaults, and a Block around one."""
import datetime as dt
import re
from collections.abc import Callable, Sequence

import pytest

from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.types import Block


@pytest.fixture
def make_record() -> Callable[..., ChunkRecord]:
    def _make_record(
        chunk_id: str,
        *,
        text: str = "",
        source_id: int = 1,
        updated_on: dt.date | None = None,
        fingerprint: str | None = None,
        flagged: Sequence[str] | None = None,
    ) -> ChunkRecord:
        return ChunkRecord(
            chunk_id=chunk_id,
            source_id=source_id,
            source_title=f"Source {source_id}",
            original_name=f"source-{source_id}.md",
            audience="public",
            updated_on=updated_on,
            heading_path=(),
            line_start=1,
            line_end=1,
            text=text,
            token_count=len(text.split()),
            fingerprint=fingerprint or f"fingerprint-{chunk_id}",
            sentences=() if flagged is None else stored_sentences(text, flagged),
        )

    return _make_record


def stored_sentences(text: str, flagged: Sequence[str]) -> tuple[SentenceSpan, ...]:
    """The sentences ingestion would store for a text written one sentence a line, the given lines flagged as
    instructions (`flagged=None` on a record means a chunk stored before sentences were)."""
    return tuple(
        SentenceSpan(start=m.start(), end=m.end(), line=number, instruction=m.group() in flagged)
        for number, m in enumerate(re.finditer(r"[^\n]+", text), start=1)
    )


@pytest.fixture
def make_block(make_record: Callable[..., ChunkRecord]) -> Callable[..., Block]:
    def _make_block(number: int, chunk_id: str, *, score: float = 1.0, **record_fields: object) -> Block:
        record = make_record(chunk_id, **record_fields)
        return Block(number=number, record=record, score=score, text=record.text)

    return _make_block
