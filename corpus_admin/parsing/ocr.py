"""Scanned PDF pages: a page with no text layer is rendered with pypdfium2 and read by tesseract (pytesseract).

pdf.py asks for the text of each page whose text layer is empty. The page is rendered in grey at 300 dpi
(less for a page too large to hold at that resolution); a page that renders blank is blank, and is not sent to
tesseract. Tesseract finds the page's paragraphs: each comes back as one line, with a blank line after it.

Tesseract (Debian's `tesseract-ocr` with `tesseract-ocr-eng`) runs as a child of the parse worker: it inherits
the worker's memory limit, and dies with it when a parse runs past its time limit (corpus_admin.sandbox kills the
worker's whole process group); the page image and output pytesseract writes are then in the worker's own
temporary folder, which the sandbox removes when the worker ends (pytesseract removes them itself after a page
that finishes). Without tesseract the site still runs: such pages are skipped, and a PDF with no
other text is rejected saying that scanned pages need tesseract (system check corpus_admin.W001 says so too).
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from typing import Final

import pypdfium2 as pdfium
import pytesseract
from PIL import Image

from corpus_admin.parsing.ooxml import short_reason
from corpus_admin.parsing.rejection import Reject

NEEDS_TESSERACT: Final = ("scanned pages (pages with no text layer) cannot be read until tesseract is installed "
                          "(Debian: apt-get install tesseract-ocr tesseract-ocr-eng)")
_DPI: Final = 300
_POINTS_PER_INCH: Final = 72
_MAX_PIXELS: Final = 35_000_000  # A3 at 300 dpi; a larger page is rendered at a lower resolution
_LANGUAGE: Final = "eng"
_PARAGRAPH_BREAK: Final = re.compile(r"\n\s*\n")
_LINE_BREAK_HYPHEN: Final = re.compile(r"(\w)-\n(?=[a-z])")
_WHITE_ENOUGH: Final = 250  # a rendered page whose darkest pixel is lighter than this has nothing on it
# pdfium is not thread-safe; with the parse sandbox off, parses run in the server's threads.
_PDFIUM: Final = threading.Lock()


def tesseract_available() -> bool:
    """Whether the tesseract program is on the PATH."""
    return shutil.which(pytesseract.pytesseract.tesseract_cmd) is not None


class ScannedPages:
    """The pages of one PDF that have no text layer, read through OCR when asked for."""

    def __init__(self, content: bytes) -> None:
        self._content = content
        self._document: pdfium.PdfDocument | None = None
        self.recognised: list[int] = []  # pages sent to tesseract
        self.unread: list[int] = []  # pages that needed tesseract when it is not installed

    def text(self, page_number: int) -> str:
        """What tesseract reads on a 1-based page, a paragraph a line; "" for a blank page, or without tesseract."""
        image = self._render(page_number)
        if _blank(image):
            return ""
        if not tesseract_available():
            self.unread.append(page_number)
            return ""
        # One thread per tesseract: its OpenMP threads are slower than one on a busy machine, and each one
        # reserves address space under the worker's memory limit. An administrator's own setting is kept.
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        self.recognised.append(page_number)
        try:
            text = pytesseract.image_to_string(image, lang=_LANGUAGE)
        except pytesseract.TesseractNotFoundError:
            self.unread.append(page_number)
            return ""
        except (pytesseract.TesseractError, OSError) as error:
            raise Reject(f"OCR failed on page {page_number}: {_tesseract_reason(error)}") from None
        return paragraph_lines(text.replace("\x0c", "").replace("\x00", ""))

    def no_text_reason(self) -> str:
        """Why the PDF gave no text at all, naming tesseract when it would have been needed."""
        if self.unread:
            return f"the PDF has no text layer, and {NEEDS_TESSERACT}"
        if self.recognised:
            return "the PDF has no text layer, and OCR found no text on its scanned pages"
        return "the PDF has no text layer"

    def _render(self, page_number: int) -> Image.Image:
        """Render a page in grey, at 300 dpi where that fits the pixel budget."""
        with _PDFIUM:
            try:
                if self._document is None:
                    self._document = pdfium.PdfDocument(self._content)
                page = self._document[page_number - 1]
                width, height = page.get_size()
                scale = min(_DPI / _POINTS_PER_INCH, (_MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
                return page.render(scale=scale, grayscale=True).to_pil()
            except pdfium.PdfiumError as error:
                raise Reject(f"unreadable PDF: page {page_number}: {short_reason(error)}") from None


def paragraph_lines(text: str) -> str:
    """Tesseract's lines joined back into its paragraphs, one paragraph a line, a blank line between paragraphs.

    A word hyphenated across a line break is joined: without its hyphen when the next line goes on in lower case
    ("deliv-" "ery": "delivery"), with it otherwise ("Pre-" "Order": "Pre-Order").
    """
    paragraphs = []
    for block in _PARAGRAPH_BREAK.split(text):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if lines:
            joined = _LINE_BREAK_HYPHEN.sub(r"\1", "\n".join(lines))
            paragraphs.append(joined.replace("-\n", "-").replace("\n", " "))
    return "\n\n".join(paragraphs)


def _blank(image: Image.Image) -> bool:
    """Whether a rendered page has no pixel dark enough to be ink."""
    return image.point(lambda value: 255 if value < _WHITE_ENOUGH else 0).getbbox() is None


def _tesseract_reason(error: Exception) -> str:
    """Tesseract's complaint in one line; running out of memory said as such."""
    message = getattr(error, "message", "") or str(error)
    if "bad_alloc" in message or getattr(error, "status", None) == -6:
        return "tesseract ran out of memory (raise RAG_PARSE_MEMORY_MB)"
    return short_reason(Exception(message))
