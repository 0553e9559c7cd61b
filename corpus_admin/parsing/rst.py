"""reStructuredText: section titles by adornment, explicit markup dropped, admonition text kept."""

from __future__ import annotations

import re
from typing import Final

from corpus_admin.parsing.document import Event, Heading, Line

_ADORNMENT_CHARS: Final = frozenset("=-~^\"'`#*+:._")
_EXPLICIT_MARKUP: Final = re.compile(r"^\s*\.\.(?:\s|$)")
_ADMONITION_NAMES: Final = (
    "admonition|attention|caution|danger|error|hint|important|note|rubric|sidebar|tip|topic|warning"
)
_ADMONITION: Final = re.compile(rf"^\s*\.\.\s+(?:{_ADMONITION_NAMES})::\s*(\S.*)$")


def rst_events(*, lines: list[str]) -> tuple[str | None, list[Event]]:
    """Find section titles by adornment, levelled by first appearance of each style."""
    events: list[Event] = []
    styles: list[tuple[str, bool]] = []
    path: tuple[str, ...] = ()
    title: str | None = None
    index, can_start_title = 0, True
    while index < len(lines):
        found = _rst_title(lines=lines, index=index) if can_start_title else None
        if found is not None:
            text, style, consumed = found
            if style not in styles:
                styles.append(style)
            level = styles.index(style) + 1
            path = (*path[: level - 1], text)
            events.append(Heading(path))
            title = text if title is None else title
            index += consumed
            continue
        raw = lines[index]
        if admonition := _ADMONITION.match(raw):
            events.append(Line(index + 1, admonition.group(1)))
        elif not _EXPLICIT_MARKUP.match(raw):
            events.append(Line(index + 1, raw))
        can_start_title = not raw.strip()
        index += 1
    return title, events


def _rst_title(*, lines: list[str], index: int) -> tuple[str, tuple[str, bool], int] | None:
    """Return (title, style, lines consumed) if a section title starts at index."""
    first = lines[index]
    over = _adornment(first)
    if over is not None and index + 2 < len(lines):
        text, under = lines[index + 1].strip(), lines[index + 2].rstrip()
        if (text and _adornment(lines[index + 1]) is None and under == first.rstrip()
                and len(under) >= len(text)):
            return text, (over, True), 3
    if over is None and first.strip() and not first[0].isspace() and index + 1 < len(lines):
        under_char = _adornment(lines[index + 1])
        if under_char is not None and len(lines[index + 1].rstrip()) >= len(first.rstrip()):
            return first.strip(), (under_char, False), 2
    return None


def _adornment(line: str) -> str | None:
    """Return the adornment character if the line is one repeated punctuation character."""
    stripped = line.rstrip()
    if len(stripped) >= 2 and stripped[0] in _ADORNMENT_CHARS and stripped == stripped[0] * len(stripped):
        return stripped[0]
    return None
