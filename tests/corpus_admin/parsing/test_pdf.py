"""PDF: a section per page of the text layer, headings (set apart by their font) and paragraphs as blocks, and the
PDFs that are refused."""
import pytest

from corpus_admin.testing import blocks, laid_out_pdf_bytes, outline, parse, pdf_bytes, rejection, texts


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


WRAPPED = ("Files are encrypted at rest with AES-256 and data in transit is protected with TLS 1.3, and the keys "
           "are stored in a dedicated key management service that rotates them every year.")
BACKUPS = ("Backups are taken every 6 hours. Backups are retained for 35 days and are stored in the same data region "
           "as the workspace they belong to.")


def test_headings_set_larger_or_in_bold_are_blocks_of_their_own_never_joined_to_the_next_sentence() -> None:
    content = laid_out_pdf_bytes([
        ("Security whitepaper", 18, True),
        ("Encryption", 13, True),
        (WRAPPED, 11, False),
        ("Backups", 13, True),
        (BACKUPS, 11, False),
    ])
    document = parse("whitepaper.pdf", content)

    assert [section.heading_path for section in document.sections] == [("Page 1",)]
    assert texts(document) == ["Security whitepaper", "Encryption", WRAPPED, "Backups", BACKUPS]
    encryption, backups = blocks(document)[2], blocks(document)[4]
    assert encryption.line_end > encryption.line_start  # wrapped over several lines of the page, joined back
    assert backups.line_end > backups.line_start and backups.page == 1


# Two lines of one paragraph, the last as long as the first: the line rules alone would run on into a heading.
FULL = ("Files are encrypted at rest with AES-256 and the keys are held\n"
        "in a key management service rotating them every year.")


@pytest.mark.parametrize(("size", "bold"), [(13, True), (14, False), (11, True)])
def test_a_heading_after_a_full_last_line_is_not_joined_to_that_paragraph(size: float, bold: bool) -> None:
    taken = "Backups are taken every 6 hours."
    content = laid_out_pdf_bytes([(FULL, 11, False), ("Backups", size, bold), (taken, 11, False)], width=180)

    assert texts(parse("whitepaper.pdf", content)) == [FULL.replace("\n", " "), "Backups", taken]


def test_a_heading_wrapped_over_two_lines_is_one_block() -> None:
    content = laid_out_pdf_bytes([("Moving a workspace from one data region to another region", 16, True),
                                  (BACKUPS, 11, False)], width=60)
    document = parse("regions.pdf", content)

    assert texts(document) == ["Moving a workspace from one data region to another region", BACKUPS]
    assert blocks(document)[0].line_end > blocks(document)[0].line_start


def test_a_wider_gap_between_lines_ends_a_paragraph_even_after_a_full_line() -> None:
    first = "Seats can be added at any time and are billed for the rest of the month, so a new seat costs less. " * 2
    second = "Seats can be removed at the end of a billing period only, and the next invoice shows the lower count."
    content = laid_out_pdf_bytes([(first.strip(), 11, False), (second, 11, False)], gap=6)

    assert texts(parse("seats.pdf", content)) == [first.strip(), second]
