"""Plain text: no headings and no title, every line is body text (markup in it stays text)."""

from __future__ import annotations

from corpus_admin.parsing.document import Event, Line


def text_events(*, lines: list[str]) -> tuple[str | None, list[Event]]:
    """Every line as body, numbered from 1, in one untitled section."""
    return None, [Line(number, line) for number, line in enumerate(lines, start=1)]
