"""What parsing produces: numbered lines in sections under heading paths, built from a format's heading events."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

_NEWLINE: Final = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Line:
    """One non-blank line of text and its 1-based line number in the original file."""

    number: int
    text: str


@dataclass(frozen=True)
class Block:
    """One unit of display text as a reader sees it: a paragraph, list item, table row, quote or code block.

    `text` has no markup: prose is one line (a paragraph's or quote's lines joined back), code keeps its newlines and
    is never cut into sentences. `line_start`/`line_end` are 1-based lines of the original file (for formats without
    lines, such as DOCX or a sheet, the block's running number); `page` is the PDF page or slide number, if paged.
    `instruction` is set at ingestion when the text addresses an AI or tells the reader to ignore rules (§2.8).
    """

    text: str
    line_start: int
    line_end: int
    code: bool = False
    page: int | None = None
    instruction: bool = False


@dataclass(frozen=True)
class Section:
    """The body lines found under one heading path."""

    heading_path: tuple[str, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed file: its name, media type, title and sections of numbered lines."""

    file_name: str
    media_type: str
    title: str | None
    sections: tuple[Section, ...]
    line_count: int


@dataclass(frozen=True)
class Heading:
    """Marks the start of a new section at a heading path."""

    path: tuple[str, ...]


# What a format's parser yields in document order: headings, and the lines between them.
Event = Heading | Line


def split_lines(text: str) -> list[str]:
    """Split on any newline convention, without a phantom line after a final newline."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def build_sections(*, events: Iterable[Event]) -> tuple[Section, ...]:
    """Group lines into sections, starting a new one at every heading and dropping blanks."""
    sections: list[Section] = []
    path: tuple[str, ...] = ()
    lines: list[Line] = []
    for event in events:
        if isinstance(event, Heading):
            if lines:
                sections.append(Section(heading_path=path, lines=tuple(lines)))
            path, lines = event.path, []
        elif text := event.text.rstrip():
            lines.append(Line(number=event.number, text=text))
    if lines:
        sections.append(Section(heading_path=path, lines=tuple(lines)))
    return tuple(sections)


def push_heading(stack: tuple[tuple[int, str], ...], *, level: int, text: str) -> tuple[tuple[int, str], ...]:
    """Close headings at the same or deeper level, then open this one."""
    kept = tuple(entry for entry in stack if entry[0] < level)
    return (*kept, (level, text))


def heading_path(stack: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    """Return the heading texts of a heading stack."""
    return tuple(text for _, text in stack)
