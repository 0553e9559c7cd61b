"""Plain text: no headings and no title; paragraphs of lines become blocks (markup in them stays text)."""

from __future__ import annotations

from corpus_admin.parsing.document import Event, split_lines
from corpus_admin.parsing.paragraphs import paragraph_blocks


def text_events(*, text: str) -> tuple[str | None, list[Event]]:
    """Every paragraph as a block, its words at their line numbers from 1, in one untitled section."""
    return None, list(paragraph_blocks(list(enumerate(split_lines(text), start=1))))
