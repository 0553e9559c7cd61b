"""PDF: a section per page of the text layer, and the PDFs that are refused."""
import pytest

from corpus_admin.testing import blocks, outline, parse, pdf_bytes, rejection, texts


def test_pdf_pages_become_sections_with_lines_counted_across_pages() -> None:
    document = parse("manual.pdf", pdf_bytes("First page\nwrapped line.", "", "Third page text", title="Manual"))
    assert outline(document) == [
        (("Page 1",), [(1, "First page wrapped line.")]),
        (("Page 3",), [(3, "Third page text")]),
    ]
    assert document.title == "Manual"
    assert document.line_count == 3
    assert document.media_type == "application/pdf"


def test_every_block_keeps_its_page() -> None:
    document = parse("guide.pdf", pdf_bytes("Refunds take five days.", "Trials last 14 days.\n- Ask support."))
    assert [(block.text, block.page) for block in blocks(document)] == [
        ("Refunds take five days.", 1), ("Trials last 14 days.", 2), ("Ask support.", 2)]


def test_a_text_layer_is_read_as_paragraphs_and_list_items() -> None:
    wrapped = "Refunds take five business days after the return is approved, and partial refunds are possible. " * 3
    document = parse("guide.pdf", pdf_bytes(f"Refund policy\n{wrapped}\n- Cards: three days\n- Bank transfers: five"))
    assert texts(document) == ["Refund policy", wrapped.strip(), "Cards: three days", "Bank transfers: five"]
    paragraph = blocks(document)[1]
    assert paragraph.line_end > paragraph.line_start  # the text layer wrapped it; each word keeps its own line


def test_pdf_without_metadata_title_has_no_title() -> None:
    assert parse("x.pdf", pdf_bytes("text")).title is None


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (pdf_bytes(""), "the PDF has no text layer"),
        (pdf_bytes("secret", user_password="pw"), "the PDF is encrypted; upload an unencrypted copy"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(64), "not a PDF (content does not start with %PDF-)"),
        (b"MZ\x90\x00\x03\x00\x00\x00", "not a PDF (content does not start with %PDF-)"),
        (b"Just some text", "not a PDF (content does not start with %PDF-)"),
    ],
)
def test_pdf_rejections(content: bytes, reason: str) -> None:
    assert rejection("file.pdf", content).reason == reason


def test_pdf_that_pypdf_cannot_read_is_rejected_with_a_short_reason() -> None:
    error = rejection("broken.pdf", b"%PDF-1.7\n" + b"\xde\xad\xbe\xef" * 64)
    assert error.reason.startswith("unreadable PDF: ")
    assert len(error.reason) <= len("unreadable PDF: ") + 120


def test_truncated_pdf_is_rejected_as_unreadable() -> None:
    assert rejection("cut.pdf", pdf_bytes("hello")[:300]).reason.startswith("unreadable PDF: ")
