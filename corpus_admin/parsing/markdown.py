"""Markdown: ATX and setext headings outside fenced code, YAML front matter skipped (its title kept)."""

from __future__ import annotations

import re
from typing import Final

from corpus_admin.parsing.document import Event, Heading, Line, heading_path, push_heading

_ATX: Final = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE_OPEN: Final = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
_SETEXT: Final = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Lines that cannot be setext heading text: indented code, list items, quotes, thematic breaks.
_NOT_PARAGRAPH: Final = re.compile(
    r"^(?: {4}|\t| {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>| {0,3}(?:[-*_][ \t]*){3,}$)"
)
_FRONT_MATTER_TITLE: Final = re.compile(r"^title:\s*(.+?)\s*$")


def markdown_events(*, lines: list[str]) -> tuple[str | None, list[Event]]:
    """Find ATX and setext headings outside fenced code; everything else is body text."""
    events: list[Event] = []
    stack: tuple[tuple[int, str], ...] = ()
    title: str | None = None
    start, front_title = _front_matter(lines=lines)
    fence: tuple[str, int] | None = None
    paragraph_line: str | None = None  # the previous line, if it could be a setext heading text
    for index in range(start, len(lines)):
        raw, number = lines[index], index + 1
        if fence is not None:
            events.append(Line(number, raw))
            if _closes_fence(raw, fence=fence):
                fence = None
            paragraph_line = None
            continue
        level, text, setext = _markdown_heading(raw, previous=paragraph_line)
        if level and text:
            if setext:
                events.pop()  # the previous line was the heading text, not body
            stack = push_heading(stack, level=level, text=text)
            events.append(Heading(heading_path(stack)))
            title = text if title is None and level == 1 else title
            paragraph_line = None
            continue
        if level:  # an empty heading such as a lone "#": not body text
            paragraph_line = None
            continue
        if opening := _FENCE_OPEN.match(raw):
            marker = opening.group(1)
            fence = (marker[0], len(marker))
        events.append(Line(number, raw))
        paragraph_line = raw if fence is None and raw.strip() and not _NOT_PARAGRAPH.match(raw) else None
    return title if title is not None else front_title, events


def _markdown_heading(raw: str, *, previous: str | None) -> tuple[int, str, bool]:
    """Return (level, text, is_setext) for an ATX heading or setext underline, else (0, '', False)."""
    if atx := _ATX.match(raw):
        return len(atx.group(1)), (atx.group(2) or "").strip(), False
    if previous is not None and (setext := _SETEXT.match(raw)):
        return (1 if setext.group(1)[0] == "=" else 2), previous.strip(), True
    return 0, "", False


def _closes_fence(raw: str, *, fence: tuple[str, int]) -> bool:
    """Tell whether a line closes the open fence (same character, at least as long)."""
    char, length = fence
    stripped = raw.strip()
    return (len(raw) - len(raw.lstrip(" ")) <= 3 and len(stripped) >= length
            and stripped == char * len(stripped))


def _front_matter(*, lines: list[str]) -> tuple[int, str | None]:
    """Return the index after YAML front matter (0 if none) and its title, if any."""
    if not lines or lines[0].rstrip() != "---":
        return 0, None
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            titles = (m.group(1).strip("'\"") for line in lines[1:index] if (m := _FRONT_MATTER_TITLE.match(line)))
            return index + 1, next(titles, None) or None
    return 0, None
