"""PDF: the text layer through pypdf, one section per page, a block per paragraph or heading, lines numbered across
pages.

pypdf because it is pure Python (nothing to build, safe to run in the parse worker's memory limit), maintained, and
reads the text layer in reading order; each block keeps its page, so a citation can name it. Headings are the lines
set apart by their font (`parsing.pdf_layout`): each is a block of its own, never part of a paragraph. (They do not
open sections: a section per heading makes many small chunks, which moved retrieval on the demo set, see the
README.) Paragraphs are found in the body lines between them by `parsing.paragraphs`, with a blank line wherever the
layout leaves a wider gap. A page whose text layer is empty (a scan) is read by OCR (`parsing.ocr`), with its page
number.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from pypdf import PdfReader

from corpus_admin.parsing.document import Block, Event, Heading, Section, build_sections, split_lines
from corpus_admin.parsing.ocr import ScannedPages
from corpus_admin.parsing.paragraphs import paragraph_blocks
from corpus_admin.parsing.pdf_layout import (
    LaidLine,
    body_style,
    continues_heading,
    is_heading,
    line_pitch,
    page_lines,
    starts_paragraph,
)
from corpus_admin.parsing.prose import Prose
from corpus_admin.parsing.rejection import Reject


def parse_pdf(*, content: bytes) -> tuple[str | None, tuple[Section, ...], int]:
    """Extract the text layer page by page; each page is a section of paragraph blocks that know their page."""
    if not content.startswith(b"%PDF-"):
        raise Reject("not a PDF (content does not start with %PDF-)")
    try:
        reader = PdfReader(io.BytesIO(content))
        encrypted = reader.is_encrypted
    except Exception as error:  # pypdf raises many exception types on malformed input
        raise Reject(f"unreadable PDF: {_short(error)}") from None
    if encrypted:
        raise Reject("the PDF is encrypted; upload an unencrypted copy")
    try:
        page_count = len(reader.pages)
    except Exception as error:  # pypdf raises many exception types on malformed input
        raise Reject(f"unreadable PDF: {_short(error)}") from None
    scans = ScannedPages(content)
    pages: list[list[LaidLine]] = []
    for page_number in range(1, page_count + 1):
        try:
            lines = page_lines(reader.pages[page_number - 1])
        except Exception as error:  # pypdf raises many exception types on malformed input
            raise Reject(f"unreadable PDF: page {page_number}: {_short(error)}") from None
        if not any(line.text.strip() for line in lines):  # a scanned page: no text layer
            lines = [LaidLine(text=line, style=None, baseline=None) for line in split_lines(scans.text(page_number))]
        pages.append(lines)
    events, number = _events(pages)
    sections = build_sections(events=events)
    if not sections:
        raise Reject(scans.no_text_reason())
    return _pdf_title(reader), sections, number


def _events(pages: Sequence[Sequence[LaidLine]]) -> tuple[list[Event], int]:
    """The sections (one a page) and paragraph blocks of the pages' lines, and the number of lines (numbered across
    pages). A heading is a block of its own, one line or wrapped over several, never joined to the text after it."""
    everything = [line for lines in pages for line in lines]
    body = body_style(everything)
    pitch = line_pitch(everything, body=body)
    events: list[Event] = []
    number = 0
    for page_number, lines in enumerate(pages, start=1):
        events.append(Heading((f"Page {page_number}",)))
        longest = max((len(line.text.strip()) for line in lines), default=0)
        run: list[tuple[int, str]] = []  # the body lines of a paragraph run, with blank ones at paragraph gaps
        heading: list[tuple[int, str]] = []  # the lines of the heading being read
        previous: LaidLine | None = None
        for line in lines:
            number += 1
            if line.style is not None and is_heading(line, body=body):
                if not (heading and previous is not None and continues_heading(previous, line)):
                    events.extend(paragraph_blocks(run, page=page_number, longest=longest))
                    events.extend(_heading_block(heading, page=page_number))
                    run, heading = [], []
                heading.append((number, line.text))
            else:
                events.extend(_heading_block(heading, page=page_number))
                heading = []
                if previous is not None and run and starts_paragraph(previous, line, pitch=pitch):
                    run.append((number, ""))
                run.append((number, line.text))
            previous = line
        events.extend(paragraph_blocks(run, page=page_number, longest=longest))
        events.extend(_heading_block(heading, page=page_number))
    return events, number


def _heading_block(lines: Sequence[tuple[int, str]], *, page: int) -> list[Block]:
    """A heading's lines as one block (the paragraph rules would cut a heading wrapped after a short word)."""
    if not lines:
        return []
    prose = Prose(line=lines[0][0])
    for number, text in lines:
        prose.resync(number)
        prose.add_space()
        prose.add(text.strip())
    block = prose.block(page=page)
    return [] if block is None else [block]


def _pdf_title(reader: PdfReader) -> str | None:
    """Return the metadata /Title, or None if absent, blank or unreadable."""
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:  # a broken info dictionary should not cost us the text
        return None
    text = " ".join(str(title).split()) if title else ""
    return text or None


def _short(error: Exception) -> str:
    """Summarise an exception in one short line."""
    message = " ".join(str(error).split()) or type(error).__name__
    return message if len(message) <= 120 else f"{message[:117]}..."
