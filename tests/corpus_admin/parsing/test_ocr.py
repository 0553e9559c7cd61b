"""Scanned PDF pages: read by tesseract with their page numbers; without tesseract, a clear reason."""
import io

import pytest
from pypdf import PdfWriter

from corpus_admin.parsing.ocr import NEEDS_TESSERACT, ScannedPages, paragraph_lines
from corpus_admin.testing import outline, parse, pdf_bytes, rejection, scanned_pdf_bytes

RETURNS = "Returns policy\n\nItems may be returned within\n30 days of deliv-\nery to the shop."
SHIPPING = "Shipping\n\nExpress domestic delivery\ntakes two business days."


def joined(*pdfs: bytes) -> bytes:
    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(io.BytesIO(pdf))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture
def no_tesseract(monkeypatch):
    monkeypatch.setattr("pytesseract.pytesseract.tesseract_cmd", "tesseract-not-installed")


def test_scanned_pages_are_read_by_ocr_and_keep_their_page_numbers() -> None:
    document = parse("scan.pdf", scanned_pdf_bytes(RETURNS, SHIPPING))

    assert outline(document) == [
        (("Page 1",), [(1, "Returns policy"), (3, "Items may be returned within 30 days of delivery to the shop.")]),
        (("Page 2",), [(4, "Shipping"), (6, "Express domestic delivery takes two business days.")]),
    ]


def test_only_the_page_without_a_text_layer_goes_to_ocr() -> None:
    content = joined(pdf_bytes("The text layer says hello."), scanned_pdf_bytes(SHIPPING))
    pages = ScannedPages(content)

    assert pages.text(2) == "Shipping\n\nExpress domestic delivery takes two business days."
    assert pages.recognised == [2]
    assert outline(parse("mixed.pdf", content)) == [
        (("Page 1",), [(1, "The text layer says hello.")]),
        (("Page 2",), [(2, "Shipping"), (4, "Express domestic delivery takes two business days.")]),
    ]


def test_a_blank_page_is_not_sent_to_tesseract() -> None:
    pages = ScannedPages(pdf_bytes(""))

    assert (pages.text(1), pages.recognised) == ("", [])
    assert rejection("blank.pdf", pdf_bytes("")).reason == "the PDF has no text layer"


def test_a_scanned_pdf_without_tesseract_is_rejected_saying_tesseract_is_needed(no_tesseract) -> None:
    error = rejection("scan.pdf", scanned_pdf_bytes(RETURNS))

    assert str(error) == f"scan.pdf: the PDF has no text layer, and {NEEDS_TESSERACT}"


def test_without_tesseract_the_text_layer_pages_are_still_read(no_tesseract) -> None:
    document = parse("mixed.pdf", joined(pdf_bytes("The text layer says hello."), scanned_pdf_bytes(SHIPPING)))

    assert outline(document) == [(("Page 1",), [(1, "The text layer says hello.")])]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("Returns\n\nItems may be\nreturned.\n", "Returns\n\nItems may be returned."),
        ("within 30 days of deliv-\nery.\n\n\n  \nNext.", "within 30 days of delivery.\n\nNext."),
        ("Pre-\nOrder is kept", "Pre-Order is kept"),
        ("", ""),
    ],
)
def test_tesseract_lines_become_one_line_per_paragraph(text: str, lines: str) -> None:
    assert paragraph_lines(text) == lines


def test_a_page_that_pdfium_cannot_render_is_rejected_as_unreadable() -> None:
    with pytest.raises(Exception, match="unreadable PDF: page 1: "):
        ScannedPages(b"%PDF-1.7\nnot really").text(1)
