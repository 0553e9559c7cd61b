"""PDF: what the text layer says about each line's look (font size, bold, height on the page), and which lines are
headings.

pypdf reports every piece of text it extracts with its font and text matrices (`visitor_text`); from them each
line gets the size and weight of most of its characters and the height of its baseline. The body style is the one
most characters of the document are set in; a heading is a short line, not ending a sentence, set larger than the
body, or in bold where the body is not. A gap between two lines well over the usual line pitch starts a new paragraph,
as a blank line would.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pypdf import PageObject

from corpus_admin.parsing.document import split_lines

_BOLD_NAME: Final = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_FORCE_BOLD: Final = 1 << 18  # the font descriptor's ForceBold flag (bit 19)
_BOLD_WEIGHT: Final = 600
_LARGER: Final = 1.1  # a heading is at least this much larger than the body, unless it is bold on a regular body
_HEADING_WORDS: Final = 15
_NOT_HEADING_END: Final = tuple(".,;")
_PARAGRAPH_GAP: Final = 1.3  # of the usual line pitch: a wider gap between two lines starts a paragraph
_HEADING_LEADING: Final = 1.6  # of a heading's size: two heading lines of one style closer than this are one heading


@dataclass(frozen=True)
class Style:
    """How most characters of a line are set: the font size on the page (points) and whether the font is bold."""

    size: float
    bold: bool


@dataclass(frozen=True)
class LaidLine:
    """One line of a page's text layer with its style and baseline height (None when the layer gives none)."""

    text: str
    style: Style | None
    baseline: float | None


def page_lines(page: PageObject) -> list[LaidLine]:
    """The lines of a page's text layer in reading order, each with its style when pypdf reports it."""
    collector = _Collector()
    text = page.extract_text(visitor_text=collector.visit).replace("\x00", "")
    lines = split_lines(text)
    laid = collector.lines()
    if [line.strip() for line in lines] != [line.text.strip() for line in laid]:
        # The visited pieces do not add up to the extracted text: keep the text, drop the look.
        return [LaidLine(text=line, style=None, baseline=None) for line in lines]
    return [LaidLine(text=line, style=entry.style, baseline=entry.baseline)
            for line, entry in zip(lines, laid, strict=True)]


def body_style(lines: Sequence[LaidLine]) -> Style | None:
    """The style most characters of these lines are set in, or None when no line has a style."""
    counts: Counter[Style] = Counter()
    for line in lines:
        if line.style is not None:
            counts[line.style] += len(line.text.replace(" ", ""))
    return counts.most_common(1)[0][0] if counts else None


def is_heading(line: LaidLine, *, body: Style | None) -> bool:
    """Whether the line is set apart from the body as a heading: larger, or bold on a regular body, and short."""
    text = line.text.strip()
    if body is None or line.style is None or not text or line.style == body:
        return False
    if text.endswith(_NOT_HEADING_END) or len(text.split()) > _HEADING_WORDS or not any(c.isalpha() for c in text):
        return False
    style = line.style
    return style.size >= _LARGER * body.size or (style.bold and not body.bold and style.size >= body.size)


def line_pitch(lines: Sequence[LaidLine], *, body: Style | None) -> float | None:
    """The usual distance between the baselines of two successive body lines, or None if too few are known."""
    gaps = [
        above.baseline - below.baseline
        for above, below in zip(lines, lines[1:], strict=False)
        if above.style == body == below.style and above.baseline is not None and below.baseline is not None
        and above.baseline > below.baseline
    ]
    return statistics.median(gaps) if gaps else None


def starts_paragraph(above: LaidLine, below: LaidLine, *, pitch: float | None) -> bool:
    """Whether the gap from `above` down to `below` is wider than a line's (or runs back up, as to a new column)."""
    if pitch is None or above.baseline is None or below.baseline is None:
        return False
    gap = above.baseline - below.baseline
    return gap <= 0 or gap > _PARAGRAPH_GAP * pitch


def continues_heading(above: LaidLine, below: LaidLine) -> bool:
    """Whether heading line `below` goes on the heading of `above`: the same style, one line of it further down."""
    if above.style is None or above.style != below.style:
        return False
    if above.baseline is None or below.baseline is None:
        return True
    return 0 < above.baseline - below.baseline <= _HEADING_LEADING * above.style.size


@dataclass
class _Line:
    counts: Counter[Style]
    baseline: float | None
    text: str = ""

    @property
    def style(self) -> Style | None:
        return self.counts.most_common(1)[0][0] if self.counts else None


class _Collector:
    """Gathers the pieces pypdf visits into lines, counting each line's characters per style."""

    def __init__(self) -> None:
        self._lines: list[_Line] = [_Line(Counter(), None)]

    def visit(self, text: str, cm: Sequence[float], tm: Sequence[float], font: Any, size: float) -> None:
        """pypdf's `visitor_text`: a piece of text with its matrices, font dictionary and font size."""
        pieces = text.split("\n")
        for index, piece in enumerate(pieces):
            if index:
                self._lines.append(_Line(Counter(), None))
            line = self._lines[-1]
            line.text += piece
            characters = len(piece.replace(" ", ""))
            if characters:
                line.counts[Style(size=_page_size(size, cm, tm), bold=_bold(font))] += characters
                if line.baseline is None:
                    line.baseline = _baseline(cm, tm)

    def lines(self) -> list[LaidLine]:
        """The lines so far, as `split_lines` would cut the same text."""
        lines = list(self._lines)
        if lines and not lines[-1].text:
            lines.pop()  # the text ended with a newline
        return [LaidLine(text=line.text, style=line.style, baseline=line.baseline) for line in lines]


def _page_size(size: float, cm: Sequence[float], tm: Sequence[float]) -> float:
    """The font size as drawn on the page: the text size scaled by the text and current matrices, to half points."""
    scale = math.sqrt(abs((tm[0] * tm[3] - tm[1] * tm[2]) * (cm[0] * cm[3] - cm[1] * cm[2])))
    return round((size * scale if scale else size) * 2) / 2


def _baseline(cm: Sequence[float], tm: Sequence[float]) -> float:
    """The height on the page of the text's origin (the text matrix's origin through the current matrix)."""
    return tm[4] * cm[1] + tm[5] * cm[3] + cm[5]


def _bold(font: Any) -> bool:
    """Whether a font dictionary names a bold face, by its name, weight or ForceBold flag."""
    try:
        font = font.get_object() if font is not None else None
        if not font:
            return False
        if _BOLD_NAME.search(str(font.get("/BaseFont", ""))):
            return True
        descriptor = font.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else None
        if not descriptor:
            return False
        weight = float(descriptor.get("/FontWeight", 0))
        return weight >= _BOLD_WEIGHT or bool(int(descriptor.get("/Flags", 0)) & _FORCE_BOLD)
    except Exception:  # a malformed font dictionary only costs us the weight
        return False
