"""DOCX through python-docx: headings by paragraph style, then paragraphs, list items and tables in body order.

Headings are paragraphs styled Title (level 0) or Heading 1..9, or a style based on one of them. Every other non-blank
paragraph (list items included) is a block of one line, a numbered or bulleted paragraph (by its own numbering or its
style's) marked as a list item of its numbering format's kind (`Block.list_item`); a table gives one block per row after
its first, which names the columns (corpus_admin.parsing.tables). A block's line numbers are its running number, since a
Word document has no lines; it has no pages either (they depend on how Word lays it out). Headers, footers, footnotes,
comments and text boxes are not read.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any, Final

import docx
from docx.document import Document
from docx.styles.style import BaseStyle
from docx.table import Table
from docx.text.paragraph import Paragraph

from corpus_admin.parsing.document import ORDERED, UNORDERED, Block, Heading, as_list_item, heading_path, push_heading
from corpus_admin.parsing.ooxml import WORD, check_package, unreadable
from corpus_admin.parsing.tables import row_sentences

_HEADING_STYLE: Final = re.compile(r"^heading ([1-9])$", re.IGNORECASE)
_TITLE_LEVEL: Final = 0
_STYLE_DEPTH: Final = 10  # styles based on styles: read this many at most


def docx_events(*, content: bytes, name: str) -> tuple[str | None, list[Heading | Block]]:
    """Read a Word document's title, headings and blocks in body order, or reject it."""
    check_package(content=content, main_type=WORD)
    with unreadable("DOCX"):
        document = docx.Document(io.BytesIO(content))
        return _read(document)


def _read(document: Document) -> tuple[str | None, list[Heading | Block]]:
    """Walk the body's paragraphs and tables in order."""
    events: list[Heading | Block] = []
    stack: tuple[tuple[int, str], ...] = ()
    levels: dict[str | None, int | None] = {}
    kinds: dict[tuple[str, str], str] = {}
    number = 0
    title = _clean(document.core_properties.title or "") or None
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            for text in row_sentences(*_header_and_rows(item)):
                number += 1
                events.append(_block(text, number=number))
            continue
        text = _clean(item.text)
        if not text:
            continue
        level = _paragraph_level(item, levels)
        if level is None:
            number += 1
            events.append(as_list_item(_block(text, number=number), _list_kind(document, item, kinds)))
            continue
        if level == _TITLE_LEVEL and title is None:
            title = text
        stack = push_heading(stack, level=level, text=text)
        events.append(Heading(heading_path(stack)))
    return title, events


def _paragraph_level(paragraph: Paragraph, levels: dict[str | None, int | None]) -> int | None:
    """The heading level of a paragraph's style (0 for Title), or None for body text; cached per style."""
    # Keyed by the paragraph's own style id (None: the default style): python-docx looks a style up by walking
    # every style of the document, which cost 3 ms a paragraph in a long document.
    style_id = paragraph._p.style
    if style_id not in levels:
        style = paragraph.style
        levels[style_id] = _style_level(style) if style is not None else None
    return levels[style_id]


def _style_level(style: BaseStyle) -> int | None:
    """The heading level of a style or of the nearest built-in heading style it is based on."""
    seen: set[str] = set()
    current: BaseStyle | None = style
    while current is not None and current.style_id not in seen:
        seen.add(current.style_id)
        name = current.name or ""
        if name.casefold() == "title":
            return _TITLE_LEVEL
        if match := _HEADING_STYLE.match(name):
            return int(match.group(1))
        current = getattr(current, "base_style", None)
    return None


def _list_kind(document: Document, paragraph: Paragraph, kinds: dict[tuple[str, str], str]) -> str:
    """ORDERED or UNORDERED for a paragraph numbered by its own properties or its style's (a bullet's numbering
    format is "bullet"), else ""; cached per numbering and level."""
    numbering = _numbering(paragraph)
    if numbering is None:
        return ""
    if numbering not in kinds:
        num_id, level = numbering
        formats: list[str] = []
        with contextlib.suppress(KeyError, NotImplementedError):  # a document without a numbering part
            root = document.part.numbering_part.element
            abstract = root.xpath(f'./w:num[@w:numId="{num_id}"]/w:abstractNumId/@w:val')
            if abstract:
                formats = root.xpath(f'./w:abstractNum[@w:abstractNumId="{abstract[0]}"]/w:lvl[@w:ilvl="{level}"]'
                                     "/w:numFmt/@w:val")
        kinds[numbering] = UNORDERED if not formats or formats[0] in ("bullet", "none") else ORDERED
    return kinds[numbering]


def _numbering(paragraph: Paragraph) -> tuple[str, str] | None:
    """The paragraph's numbering id and level, its own or its style's (nearest first); None when not numbered."""
    holders = [paragraph._p]
    style: BaseStyle | None = paragraph.style
    while style is not None and len(holders) < _STYLE_DEPTH:
        holders.append(style.element)
        style = getattr(style, "base_style", None)
    for holder in holders:
        properties = holder.pPr
        found: Any = properties.numPr if properties is not None else None  # python-docx types it loosely
        if found is not None and found.numId is not None and found.numId.val != 0:  # numId 0: numbering turned off
            level = found.ilvl.val if found.ilvl is not None else 0
            return str(found.numId.val), str(level)
    return None


def _header_and_rows(table: Table) -> tuple[list[str], list[list[str]]]:
    """A table's first row as its headers and the rest as rows of cell text."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            # A cell merged across columns repeats in each: read it once, in its first column, so the columns
            # still line up with the headers. One merged down rows repeats in each row, naming each row.
            merged = previous is not None and cell._tc is previous
            previous = cell._tc
            cells.append("" if merged else " ".join(paragraph.text for paragraph in cell.paragraphs))
        rows.append(cells)
    return (rows[0], rows[1:]) if rows else ([], [])


def _block(text: str, *, number: int) -> Block:
    """A one-line block numbered by its place among the document's blocks."""
    return Block(text=text, line_start=number, line_end=number)


def _clean(text: str) -> str:
    """Collapse tabs, line breaks and runs of spaces to single spaces."""
    return " ".join(text.split())
