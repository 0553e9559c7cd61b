"""Helpers for tests of the corpus: documents built in memory, and parsing them to compare or to see refused."""
from fpdf import FPDF

from corpus_admin.parsing import Block, ParsedDocument, RejectedFile, parse_document

Outline = list[tuple[tuple[str, ...], list[tuple[int, str]]]]

_TEST_LIMIT = 20 * 1024 * 1024


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
