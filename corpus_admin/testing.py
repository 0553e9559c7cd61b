"""Helpers for tests of the corpus: documents built in memory, parsing them to compare or to see refused, and the
database task queue run here and now."""
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol
from unittest import mock

import docx
import openpyxl
import pptx
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from corpus_admin.parsing import Block, ParsedDocument, RejectedFile, parse_document

Outline = list[tuple[tuple[str, ...], list[tuple[int, str]]]]

_TEST_LIMIT = 20 * 1024 * 1024
_SERIF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}


def pdf_bytes(*pages: str, title: str | None = None, user_password: str | None = None) -> bytes:
    """A PDF with one page per text (an empty text leaves its page blank), optionally titled or encrypted."""
    pdf = FPDF()
    if title is not None:
        pdf.set_title(title)
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.multi_cell(0, 8, text)
    if user_password is not None:
        pdf.set_encryption(owner_password="owner", user_password=user_password)
    return bytes(pdf.output())


def laid_out_pdf_bytes(*pages: Sequence[tuple[str, float, bool]], width: float = 120, gap: float = 4) -> bytes:
    """A PDF with one page per sequence of (text, font size, bold) paragraphs, as a word processor sets them.

    Each paragraph is wrapped to `width` mm in Helvetica at its size, its lines 1.4 sizes apart, with `gap` mm of
    space after it; a text's newlines are line breaks inside the paragraph.
    """
    pdf = FPDF()
    for paragraphs in pages:
        pdf.add_page()
        for text, size, bold in paragraphs:
            pdf.set_font("Helvetica", style="B" if bold else "", size=size)
            pdf.multi_cell(width, size * 1.4 * 0.3528, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(gap)
    return bytes(pdf.output())


def scanned_pdf_bytes(*pages: str) -> bytes:
    """A PDF of page images and no text layer, as a scanner makes it: each page's lines drawn in black on white.

    A blank line leaves a gap between paragraphs. The font is DejaVu Serif where Debian has it (serifs keep "I"
    apart from "l"), else the TrueType face Pillow ships; 40 px on an A4 page at 150 dpi, large enough for
    tesseract. Lines over about 45 characters run off the page.
    """
    font = ImageFont.truetype(str(_SERIF), 40) if _SERIF.exists() else ImageFont.load_default(size=40)
    images = []
    for text in pages:
        image = Image.new("L", (1240, 1754), 255)
        draw = ImageDraw.Draw(image)
        top = 150
        for line in text.splitlines():
            draw.text((120, top), line, font=font, fill=0)
            top += 56 if line else 40
        images.append(image)
    out = io.BytesIO()
    images[0].save(out, "PDF", save_all=True, append_images=images[1:], resolution=150)
    return out.getvalue()


def docx_bytes(*paragraphs: str) -> bytes:
    """A Word document of plain paragraphs."""
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    return _saved(document)


def pptx_bytes(*slides: tuple[str, str]) -> bytes:
    """A presentation of (title, body text) slides."""
    deck = pptx.Presentation()
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])  # "Title and Content"
        slide.shapes.title.text = title
        slide.placeholders[1].text_frame.text = body
    return _saved(deck)


def xlsx_bytes(sheets: dict[str, Sequence[Sequence[object]]]) -> bytes:
    """A workbook with a sheet of rows for each name."""
    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    return _saved(workbook)


class _Savable(Protocol):
    def save(self, file: io.BytesIO) -> object: ...


def _saved(document: _Savable) -> bytes:
    """The bytes python-docx, python-pptx or openpyxl write for a document."""
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def parse(file_name: str, content: bytes, *, max_bytes: int = _TEST_LIMIT) -> ParsedDocument:
    """Parse `content` as an upload named `file_name`, under a 20 MB cap unless told otherwise."""
    return parse_document(file_name=file_name, content=content, max_bytes=max_bytes)


def outline(document: ParsedDocument) -> Outline:
    """A document's sections as (heading path, [(first line, text), ...]) of their blocks, to compare with a literal."""
    return [
        (section.heading_path, [(block.line_start, block.text) for block in section.blocks])
        for section in document.sections
    ]


def blocks(document: ParsedDocument) -> list[Block]:
    """Every block of a document, in order."""
    return [block for section in document.sections for block in section.blocks]


def texts(document: ParsedDocument) -> list[str]:
    """Every block's display text, in order."""
    return [block.text for block in blocks(document)]


def rejection(file_name: str, content: bytes, *, max_bytes: int = _TEST_LIMIT) -> RejectedFile:
    """The RejectedFile that parsing the upload raises; AssertionError if it is accepted."""
    try:
        parse(file_name, content, max_bytes=max_bytes)
    except RejectedFile as error:
        return error
    raise AssertionError(f"{file_name} was accepted, not rejected")


def run_queued_tasks() -> None:
    """Run every task queued in the database backend, in this process, as `ingest_worker --batch` does.

    The library's own worker loop, without the signal handlers its command installs (they would be pytest's), and
    without its closing of old connections: inside a test's transaction that would close the test's connection.
    """
    from django_tasks_db.management.commands import db_worker  # needs Django's apps; the sandbox imports this module

    worker = db_worker.Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    )
    with mock.patch.object(db_worker, "close_old_connections", lambda: None):
        worker.run()
