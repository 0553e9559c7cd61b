"""PDF: sections under the headings the text layer sets apart by font (or per page before any), paragraphs, and the
PDFs that are refused."""
import pytest

from corpus_admin.parsing import Section
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


def test_headings_set_larger_or_in_bold_open_sections_and_never_join_the_next_sentence() -> None:
    content = laid_out_pdf_bytes([
        ("Security whitepaper", 18, True),
        ("Encryption", 13, True),
        (WRAPPED, 11, False),
        ("Backups", 13, True),
        (BACKUPS, 11, False),
    ])
    document = parse("whitepaper.pdf", content)

    assert [(section.heading_path, [block.text for block in section.blocks]) for section in document.sections] == [
        (("Security whitepaper", "Encryption"), [WRAPPED]),
        (("Security whitepaper", "Backups"), [BACKUPS]),
    ]
    encryption, backups = blocks(document)
    assert encryption.line_end > encryption.line_start  # wrapped over several lines of the page, joined back
    assert backups.line_end > backups.line_start
    assert backups.page == 1


def test_a_bold_line_on_a_regular_body_of_the_same_size_is_a_heading() -> None:
    content = laid_out_pdf_bytes([("Refunds", 11, True), ("Refunds take five business days.", 11, False),
                                  ("Trials", 11, True), ("Trials last 14 days.", 11, False)])

    assert [(section.heading_path, [block.text for block in section.blocks])
            for section in parse("guide.pdf", content).sections] == [
        (("Refunds",), ["Refunds take five business days."]), (("Trials",), ["Trials last 14 days."])]


def test_heading_levels_follow_their_sizes_and_a_section_runs_on_to_the_next_page() -> None:
    content = laid_out_pdf_bytes(
        [("Guide", 20, True), ("Billing", 15, True), ("Invoices", 12, True),
         ("Invoices are sent monthly.", 10, False)],
        [("Invoices are paid by card.", 10, False), ("Support", 15, True),
         ("Support answers within a day.", 10, False)],
    )
    document = parse("guide.pdf", content)

    assert [(section.heading_path, [(block.page, block.text) for block in section.blocks])
            for section in document.sections] == [
        (("Guide", "Billing", "Invoices"), [(1, "Invoices are sent monthly."), (2, "Invoices are paid by card.")]),
        (("Guide", "Support"), [(2, "Support answers within a day.")]),
    ]


def texts_of(section: Section) -> list[str]:
    return [block.text for block in section.blocks]


def test_a_heading_wrapped_over_two_lines_is_one_heading() -> None:
    content = laid_out_pdf_bytes([("Moving a workspace from one data region to another region", 16, True),
                                  (BACKUPS, 11, False)], width=60)
    document = parse("regions.pdf", content)

    assert [(section.heading_path, texts_of(section)) for section in document.sections] == [
        (("Moving a workspace from one data region to another region",), [BACKUPS])]


def test_a_wider_gap_between_lines_ends_a_paragraph_even_after_a_full_line() -> None:
    first = "Seats can be added at any time and are billed for the rest of the month, so a new seat costs less. " * 2
    second = "Seats can be removed at the end of a billing period only, and the next invoice shows the lower count."
    content = laid_out_pdf_bytes([(first.strip(), 11, False), (second, 11, False)], gap=6)

    assert texts(parse("seats.pdf", content)) == [first.strip(), second]


def test_body_text_before_the_first_heading_stays_under_its_page() -> None:
    content = laid_out_pdf_bytes([("Confidential draft, shared with partners only.", 11, False)],
                                 [("Discounts", 14, True), ("Partners receive 20% off.", 11, False)])

    assert outline(parse("draft.pdf", content)) == [
        (("Page 1",), [(1, "Confidential draft, shared with partners only.")]),
        (("Discounts",), [(3, "Partners receive 20% off.")]),
    ]
