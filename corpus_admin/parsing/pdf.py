"""PDF: the text layer through pypdf, one section per page, a block per paragraph, lines numbered across pages.

pypdf because it is pure Python (nothing to build, safe to run in the parse worker's memory limit), maintained, and
reads the text layer in reading order; each block keeps its page, so a citation can name it. Paragraphs are found
in each page's lines by `parsing.paragraphs`. A page whose text layer is empty (a scan) is read by OCR
(`parsing.ocr`), with its page number.
"""

from __future__ import annotations

import io

from pypdf import PdfReader

from corpus_admin.parsing.document import Event, Heading, Section, build_sections, split_lines
from corpus_admin.parsing.ocr import ScannedPages
from corpus_admin.parsing.paragraphs import paragraph_blocks
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
    events: list[Event] = []
    number = 0
    scans = ScannedPages(content)
    for page_number in range(1, page_count + 1):
        try:
            # PostgreSQL text cannot hold NUL, which some PDF text layers contain.
            text = reader.pages[page_number - 1].extract_text().replace("\x00", "")
        except Exception as error:  # pypdf raises many exception types on malformed input
            raise Reject(f"unreadable PDF: page {page_number}: {_short(error)}") from None
        if not text.strip():
            text = scans.text(page_number)  # a scanned page: no text layer
        events.append(Heading((f"Page {page_number}",)))
        lines = [(number + offset, line) for offset, line in enumerate(split_lines(text), start=1)]
        number += len(lines)
        events.extend(paragraph_blocks(lines, page=page_number))
    sections = build_sections(events=events)
    if not sections:
        raise Reject(scans.no_text_reason())
    return _pdf_title(reader), sections, number


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
