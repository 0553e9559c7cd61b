"""PPTX through python-pptx: a heading per slide ("Slide 3: Pricing"), its text and tables, then its notes.

A slide's shapes are read top to bottom, then left to right (grouped shapes likewise, within the group); each
paragraph of a text frame is a block, a table gives one block per row after its first, which names the columns
(corpus_admin.parsing.tables), and speaker notes come last under ("Slide 3: Pricing", "Notes"). Every block
carries its slide number as its page; its line numbers are its running number in the deck. Hidden slides are
left out (their numbers stay the ones PowerPoint shows); pictures and charts have no text to read.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from typing import Final

import pptx
from pptx.presentation import Presentation
from pptx.shapes.base import BaseShape
from pptx.shapes.group import GroupShape
from pptx.slide import Slide
from pptx.text.text import TextFrame

from corpus_admin.parsing.document import Block, Heading
from corpus_admin.parsing.ooxml import SLIDES, check_package, unreadable
from corpus_admin.parsing.tables import row_sentences

_NOTES: Final = "Notes"


def pptx_events(*, content: bytes, name: str) -> tuple[str | None, list[Heading | Block]]:
    """Read a presentation's title and, slide by slide, its heading and blocks, or reject it."""
    check_package(content=content, main_type=SLIDES)
    with unreadable("PPTX"):
        deck = pptx.Presentation(io.BytesIO(content))
        return _read(deck)


def _read(deck: Presentation) -> tuple[str | None, list[Heading | Block]]:
    """Walk the visible slides in order."""
    events: list[Heading | Block] = []
    number = 0
    for page, slide in enumerate(deck.slides, start=1):
        if slide._element.get("show") in {"0", "false"}:  # hidden: not shown when the deck is presented
            continue
        heading = _slide_heading(slide, page=page)
        events.append(Heading((heading,)))
        for text in _slide_texts(slide):
            number += 1
            events.append(Block(text=text, line_start=number, line_end=number, page=page))
        notes = list(_notes_texts(slide))
        if notes:
            events.append(Heading((heading, _NOTES)))
        for text in notes:
            number += 1
            events.append(Block(text=text, line_start=number, line_end=number, page=page))
    return _clean(deck.core_properties.title or "") or None, events


def _slide_heading(slide: Slide, *, page: int) -> str:
    """"Slide 3: <its title>", or "Slide 3" when it has no title."""
    title = slide.shapes.title
    text = _clean(title.text_frame.text) if title is not None and title.has_text_frame else ""
    return f"Slide {page}: {text}" if text else f"Slide {page}"


def _slide_texts(slide: Slide) -> Iterator[str]:
    """The slide's paragraphs and table rows in reading order, its title left out."""
    title = slide.shapes.title
    skip = title.shape_id if title is not None else None
    yield from _shape_texts(shape for shape in slide.shapes if shape.shape_id != skip)


def _shape_texts(shapes: Iterable[BaseShape]) -> Iterator[str]:
    """Texts of shapes in reading order: top to bottom, then left to right."""
    for shape in sorted(shapes, key=lambda shape: (shape.top or 0, shape.left or 0)):
        if isinstance(shape, GroupShape):
            yield from _shape_texts(shape.shapes)
        elif getattr(shape, "has_table", False):
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]  # type: ignore[attr-defined]
            if rows:
                yield from row_sentences(rows[0], rows[1:])
        elif shape.has_text_frame:
            yield from _paragraph_texts(shape.text_frame)  # type: ignore[attr-defined]


def _notes_texts(slide: Slide) -> Iterator[str]:
    """The paragraphs of the slide's speaker notes, if it has any."""
    if not slide.has_notes_slide:
        return
    frame = slide.notes_slide.notes_text_frame
    if frame is not None:
        yield from _paragraph_texts(frame)


def _paragraph_texts(frame: TextFrame) -> Iterator[str]:
    """A text frame's non-blank paragraphs, line breaks within one read as spaces."""
    for paragraph in frame.paragraphs:
        if text := _clean(paragraph.text):
            yield text


def _clean(text: str) -> str:
    """Collapse whitespace, including PowerPoint's vertical-tab line breaks, to single spaces."""
    return " ".join(text.replace("\v", " ").split())
