"""What parsing produces: blocks of display text in sections under heading paths, built from a format's events."""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

_NEWLINE: Final = re.compile(r"\r\n|\r|\n")
ORDERED, UNORDERED = "ordered", "unordered"  # what kind of list a list item's block stands in


@dataclass(frozen=True)
class Block:
    """One unit of display text as a reader sees it: a paragraph, list item, table row, quote or code block.

    `text` has no markup: prose is one line (a paragraph's or quote's lines joined back), code keeps its newlines and
    is never cut into sentences. `line_start`/`line_end` are 1-based lines of the original file (for formats without
    lines, such as DOCX or a sheet, the block's running number); `page` is the PDF page or slide number, if paged.
    `instruction` is set at ingestion when the text addresses an AI or tells the reader to ignore rules (§2.8).
    `line_marks` say where the text's later source lines begin: (character offset into text, 1-based line), in
    order; text before the first mark is on line_start. `list_item` is ORDERED or UNORDERED for an item of a
    numbered or bulleted list (its text without the number or bullet), empty otherwise.
    """

    text: str
    line_start: int
    line_end: int
    code: bool = False
    page: int | None = None
    instruction: bool = False
    line_marks: tuple[tuple[int, int], ...] = ()
    list_item: str = ""

    def line_at(self, offset: int) -> int:
        """The source line of the character at `offset` in text (code: its lines follow one another)."""
        if self.code:
            return self.line_start + self.text.count("\n", 0, offset)
        index = bisect.bisect_right(self.line_marks, offset, key=lambda mark: mark[0]) - 1
        return self.line_marks[index][1] if index >= 0 else self.line_start


@dataclass(frozen=True)
class Section:
    """The blocks found under one heading path."""

    heading_path: tuple[str, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed file: its name, media type, title and sections of blocks."""

    file_name: str
    media_type: str
    title: str | None
    sections: tuple[Section, ...]
    line_count: int


@dataclass(frozen=True)
class Heading:
    """Marks the start of a new section at a heading path."""

    path: tuple[str, ...]


# What a format's parser yields in document order: headings, and the blocks between them.
Event = Heading | Block


def as_list_item(block: Block, kind: str) -> Block:
    """The block marked as an item of a list of that kind (ORDERED, UNORDERED; "" leaves it as it is; code is never
    a list item)."""
    if not kind or block.code:
        return block
    return dataclasses.replace(block, list_item=kind)


def split_lines(text: str) -> list[str]:
    """Split on any newline convention, without a phantom line after a final newline."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def build_sections(*, events: Iterable[Event]) -> tuple[Section, ...]:
    """Group blocks into sections, starting a new one at every heading and dropping blank blocks."""
    sections: list[Section] = []
    path: tuple[str, ...] = ()
    blocks: list[Block] = []
    for event in events:
        if isinstance(event, Heading):
            if blocks:
                sections.append(Section(heading_path=path, blocks=tuple(blocks)))
            path, blocks = event.path, []
        elif event.text.strip():
            blocks.append(event)
    if blocks:
        sections.append(Section(heading_path=path, blocks=tuple(blocks)))
    return tuple(sections)


def push_heading(stack: tuple[tuple[int, str], ...], *, level: int, text: str) -> tuple[tuple[int, str], ...]:
    """Close headings at the same or deeper level, then open this one."""
    kept = tuple(entry for entry in stack if entry[0] < level)
    return (*kept, (level, text))


def heading_path(stack: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    """Return the heading texts of a heading stack."""
    return tuple(text for _, text in stack)
