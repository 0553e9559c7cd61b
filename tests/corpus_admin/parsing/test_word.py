"""DOCX: headings by paragraph style, paragraphs, list items and table rows in body order; misnamed files refused."""
import io
import zipfile

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE

from corpus_admin.parsing.document import UNORDERED, Block, Heading
from corpus_admin.parsing.word import docx_events
from corpus_admin.testing import docx_bytes, parse, pptx_bytes, rejection, texts, xlsx_bytes

WORD = "a Word document (.docx)"


def saved(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def events(content: bytes):
    return docx_events(content=content, name="guide.docx")


def table(document, rows: list[list[str]]):
    added = document.add_table(rows=len(rows), cols=len(rows[0]))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            added.cell(r, c).text = text
    return added


def test_headings_paragraphs_list_items_and_table_rows_come_in_body_order() -> None:
    document = docx.Document()
    document.add_heading("Shipping guide", 0)
    document.add_paragraph("We ship to   every\tcountry.")
    document.add_heading("Delivery times", 1)
    table(document, [["Service", "Time"], ["Express domestic", "2 business days"], ["Standard", "5 business days"]])
    document.add_heading("Customs", 2)
    document.add_paragraph("Duties are paid by the recipient.", style="List Bullet")
    document.add_paragraph("")
    document.add_heading("Returns", 1)
    document.add_paragraph("Returns are free within 30 days.")

    title, found = events(saved(document))

    assert title == "Shipping guide"
    assert found == [
        Heading(("Shipping guide",)),
        Block("We ship to every country.", 1, 1),
        Heading(("Shipping guide", "Delivery times")),
        Block("Service: Express domestic; Time: 2 business days", 2, 2),
        Block("Service: Standard; Time: 5 business days", 3, 3),
        Heading(("Shipping guide", "Delivery times", "Customs")),
        Block("Duties are paid by the recipient.", 4, 4, list_item=UNORDERED),
        Heading(("Shipping guide", "Returns")),
        Block("Returns are free within 30 days.", 5, 5),
    ]
    assert all(event.page is None and not event.code for event in found if isinstance(event, Block))


def test_wide_table_rows_name_every_header_and_a_merged_cell_counts_once() -> None:
    document = docx.Document()
    rows = table(document, [["Service", "Time", "Price"], ["Express", "2 days", "$9"], ["Pickup", "", ""]])
    rows.cell(2, 1).merge(rows.cell(2, 2)).text = "same day, free"

    _, found = events(saved(document))

    assert [event.text for event in found] == ["Service: Express; Time: 2 days; Price: $9",
                                               "Service: Pickup; Time: same day, free"]


def test_the_document_properties_title_wins_and_a_style_based_on_a_heading_is_a_heading() -> None:
    document = docx.Document()
    document.core_properties.title = "Shipping Handbook"
    style = document.styles.add_style("Chapter", WD_STYLE_TYPE.PARAGRAPH)
    style.base_style = document.styles["Heading 1"]
    document.add_paragraph("Abroad", style="Chapter")
    document.add_paragraph("Parcels abroad take a week.")

    title, found = events(saved(document))

    assert title == "Shipping Handbook"
    assert found == [Heading(("Abroad",)), Block("Parcels abroad take a week.", 1, 1)]


def test_a_document_without_a_title_has_none() -> None:
    assert events(docx_bytes("Just a paragraph."))[0] is None


def test_docx_through_dispatch_keeps_its_media_type_and_blocks() -> None:
    document = parse("guide.docx", docx_bytes("First paragraph.", "Second paragraph."))

    assert document.media_type == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    assert texts(document) == ["First paragraph.", "Second paragraph."]


def zip_of(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"Dear customer, ...", f"not {WORD} (the content is not a zip archive)"),
        (xlsx_bytes({"Prices": [["Plan", "Price"]]}), f"the file is an Excel workbook (.xlsx), not {WORD}"),
        (pptx_bytes(("Pricing", "Plans")), f"the file is a PowerPoint presentation (.pptx), not {WORD}"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504),
         f"an old binary Office file (.doc, .xls or .ppt), not {WORD}; save it in the newer format"),
        (zip_of({"notes.txt": b"hello"}), f"not {WORD} (a zip archive without [Content_Types].xml)"),
        (zip_of({"[Content_Types].xml": b"<Types"}), f"not {WORD} (its [Content_Types].xml is not valid XML)"),
        (zip_of({"[Content_Types].xml": b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                                        b'<Override PartName="/a.xml" ContentType="application/xml"/></Types>'}),
         f"not {WORD} (a zip archive of another kind)"),
    ],
    ids=["text", "xlsx", "pptx", "doc", "zip", "broken-types", "other-zip"],
)
def test_a_docx_that_is_not_one_is_rejected_naming_what_it_is(content: bytes, reason: str) -> None:
    error = rejection("report.docx", content)

    assert str(error) == f"report.docx: {reason}"


def test_a_docx_whose_main_part_is_missing_is_unreadable() -> None:
    whole = zipfile.ZipFile(io.BytesIO(docx_bytes("Text.")))
    parts = {info.filename: whole.read(info) for info in whole.infolist() if info.filename != "word/document.xml"}

    assert rejection("report.docx", zip_of(parts)).reason.startswith("unreadable DOCX: ")
