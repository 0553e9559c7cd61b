"""A chunk's text as its page shows it: each line of prose a paragraph of the sentences it was split into (a list
item's line an item of its list), code as code, from the stored sentences (a chunk's blocks are joined by newlines;
code is the text no sentence covers)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from answers.pipeline.records import SentenceSpan


@dataclass(frozen=True)
class ShownSentence:
    """One sentence on the page: its number in the chunk (for its id, `s-<n>`), text, line and flag."""

    number: int
    text: str
    line: int
    instruction: bool
    before: str = ""  # text between the previous sentence (or the line's start) and this one


@dataclass(frozen=True)
class Part:
    """A paragraph of sentences, or a code block."""

    code: bool
    text: str = ""  # a code block's text
    sentences: tuple[ShownSentence, ...] = ()
    after: str = ""  # a paragraph's text after its last sentence
    list_item: str = ""  # "ordered" or "unordered" for a list item's line (as stored at ingestion), else ""
    opens_list: bool = False  # the first item of a run of list items of one kind
    closes_list: bool = False  # the last one

    @property
    def list_tag(self) -> str:
        """The list element a list item's line stands in: "ol" (numbered) or "ul"."""
        return "ol" if self.list_item == "ordered" else "ul"


def chunk_parts(text: str, sentences: Sequence[SentenceSpan]) -> list[Part]:
    """Split a chunk's text into paragraphs of its sentences and code blocks; empty when it has no sentences."""
    if not sentences:
        return []
    ordered = sorted(enumerate(sentences, start=1), key=lambda pair: pair[1].start)
    parts: list[Part] = []
    code: list[str] = []
    position, index = 0, 0
    for line in text.split("\n"):
        end = position + len(line)
        shown: list[ShownSentence] = []
        cursor = position
        while index < len(ordered) and ordered[index][1].start < end + 1:
            number, span = ordered[index]
            stop = min(span.end, end)
            shown.append(ShownSentence(number=number, text=text[max(span.start, cursor):stop], line=span.line,
                                       instruction=span.instruction, before=text[cursor:max(span.start, cursor)]))
            cursor = stop
            index += 1
        if shown:
            if code:
                parts.append(Part(code=True, text="\n".join(code)))
                code = []
            listed = ordered[index - 1][1].list_item  # the line's sentences are one block's: one item, or none
            parts.append(Part(code=False, sentences=tuple(shown), after=text[cursor:end], list_item=listed))
        elif line.strip() or code:
            code.append(line)
        position = end + 1
    if code and "".join(code).strip():
        parts.append(Part(code=True, text="\n".join(code).rstrip("\n")))
    return _listed(parts)


def _listed(parts: list[Part]) -> list[Part]:
    """Mark where each run of consecutive list item lines of one kind opens and closes its list."""
    kinds = [part.list_item for part in parts]
    return [
        dataclasses.replace(part, opens_list=i == 0 or kinds[i - 1] != kind,
                            closes_list=i == len(parts) - 1 or kinds[i + 1] != kind) if kind else part
        for i, (part, kind) in enumerate(zip(parts, kinds, strict=True))
    ]


def marked_segments(text: str, ranges: Sequence[tuple[int, int]]) -> list[tuple[str, bool]]:
    """A chunk's text cut at the given character ranges: (piece, whether it lies in one), in order, nothing lost."""
    segments: list[tuple[str, bool]] = []
    cursor = 0
    for start, end in sorted(ranges):
        start, end = max(start, cursor), min(end, len(text))
        if start >= end:
            continue
        if start > cursor:
            segments.append((text[cursor:start], False))
        segments.append((text[start:end], True))
        cursor = end
    if cursor < len(text):
        segments.append((text[cursor:], False))
    return segments


@dataclass(frozen=True)
class LineLabel:
    """What a format's stored line numbers count, for a range and for one."""

    many: str
    one: str


_TEXT_LINES: Final = LineLabel("Lines", "Line")
# What the office parsers number as a block's "lines" (corpus_admin/parsing): a Word document's and a deck's running
# block number (its paragraphs, list items and table rows), a sheet's row number. Text, PDF and CSV count file lines.
_BLOCK_LINES: Final = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": LineLabel("Paragraphs", "Paragraph"),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": LineLabel("Paragraphs", "Paragraph"),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": LineLabel("Rows", "Row"),
}


def line_label(media_type: str) -> LineLabel:
    """What a chunk's line numbers count in its format: lines of a text file, paragraphs of a document, sheet rows."""
    return _BLOCK_LINES.get(media_type, _TEXT_LINES)


def page_label(media_type: str) -> str:
    """What a paged format calls its pages: slides for a presentation, pages otherwise."""
    return "Slide" if "presentation" in media_type else "Page"
