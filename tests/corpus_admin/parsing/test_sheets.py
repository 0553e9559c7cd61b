"""XLSX: a heading per sheet, its first filled row naming the columns, a block per row numbered by the sheet."""
import datetime as dt
import io

import openpyxl
import pytest

from corpus_admin.parsing.document import Block, Heading
from corpus_admin.parsing.sheets import cell_text, xlsx_events
from corpus_admin.testing import docx_bytes, outline, parse, rejection, xlsx_bytes


def saved(workbook) -> bytes:
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_each_sheet_is_a_heading_and_each_row_after_the_headers_a_block_at_its_row_number() -> None:
    workbook = openpyxl.Workbook()
    shipping = workbook.active
    shipping.title = "Shipping"
    shipping["A1"] = "Rates valid from March"
    shipping["C1"] = None
    shipping.append([])
    shipping.append(["Service", "Time", "Price"])
    shipping.append(["Express domestic", "2 business days", 9])
    shipping.append([])
    shipping.append(["Standard", "5 business days", 4.5])
    shipping["C6"].number_format = '"$"#,##0.00'
    returns = workbook.create_sheet("Returns")
    returns.append(["Item", "Window"])
    returns.append(["Shoes", "30 days"])
    secret = workbook.create_sheet("Floor prices")
    secret.append(["Plan", "Floor"])
    secret.append(["Pro", "$30"])
    secret.sheet_state = "hidden"
    workbook.properties.title = "Logistics"

    title, found = xlsx_events(content=saved(workbook), name="logistics.xlsx")

    assert title == "Logistics"
    assert found == [
        Heading(("Shipping",)),
        Block("Rates valid from March", 1, 1),
        Block("Service: Express domestic; Time: 2 business days; Price: 9", 4, 4),
        Block("Service: Standard; Time: 5 business days; Price: $4.50", 6, 6),
        Heading(("Returns",)),
        Block("Item: Shoes; Window: 30 days", 2, 2),
    ]


def test_headers_found_below_blank_rows_name_the_columns() -> None:
    content = xlsx_bytes({"Plans": [[], [None, "Plan", "Price", "Seats"], [None, "Standard", "$19", 5]]})

    _, found = xlsx_events(content=content, name="plans.xlsx")

    assert found == [Heading(("Plans",)), Block("Plan: Standard; Price: $19; Seats: 5", 3, 3)]


def test_a_sheet_of_one_column_takes_its_first_filled_row_as_the_header() -> None:
    content = xlsx_bytes({"Cities": [["City"], ["Lyon"], [None], ["Oslo"]]})

    _, found = xlsx_events(content=content, name="cities.xlsx")

    assert found == [Heading(("Cities",)), Block("City: Lyon", 2, 2), Block("City: Oslo", 4, 4)]


def test_formulas_give_the_value_saved_with_the_file_and_none_when_never_computed() -> None:
    content = xlsx_bytes({"Totals": [["Item", "Total"], ["Shoes", "=1+1"], ["Bags", 3]]})

    _, found = xlsx_events(content=content, name="totals.xlsx")

    assert [event.text for event in found if isinstance(event, Block)] == ["Item: Shoes", "Item: Bags; Total: 3"]


@pytest.mark.parametrize(
    ("value", "number_format", "shown"),
    [
        (None, "General", ""),
        (2.0, "General", "2"),
        (0.1 + 0.2, "General", "0.3"),
        (1234.5, "#,##0.00", "1234.50"),
        (0.25, "0%", "25%"),
        (0.125, "0.0%", "12.5%"),
        (9, '"$"#,##0.00', "$9.00"),
        (-3, "$#,##0", "-$3"),
        (9.5, "[$€-407]#,##0.00", "€9.50"),
        (9.5, "#,##0.00 [$€-407]", "9.50 €"),
        (True, "General", "TRUE"),
        (dt.datetime(2025, 3, 1), "yyyy-mm-dd", "2025-03-01"),
        (dt.datetime(2025, 3, 1, 9, 30), "yyyy-mm-dd hh:mm", "2025-03-01 09:30"),
        (dt.time(17, 0), "hh:mm", "17:00"),
        ("  Two\nlines ", "@", "  Two\nlines "),
    ],
)
def test_cell_text_reads_like_excel_shows_it(value, number_format: str, shown: str) -> None:
    assert cell_text(value, number_format) == shown


def test_xlsx_through_dispatch_has_its_media_type_and_sheet_sections() -> None:
    document = parse("plans.xlsx", xlsx_bytes({"Plans": [["Plan", "Price"], ["Pro", "$49"]]}))

    assert document.media_type == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert outline(document) == [(("Plans",), [(2, "Plan: Pro; Price: $49")])]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"Plan,Price\nPro,$49\n", "not an Excel workbook (.xlsx) (the content is not a zip archive)"),
        (docx_bytes("Hello"), "the file is a Word document (.docx), not an Excel workbook (.xlsx)"),
        (xlsx_bytes({"Empty": []}), "the file has no body text (only headings or markup)"),
        (xlsx_bytes({"Headers": [["Plan", "Price"]]}), "the file has no body text (only headings or markup)"),
    ],
)
def test_xlsx_rejections_name_the_reason(content: bytes, reason: str) -> None:
    assert str(rejection("plans.xlsx", content)) == f"plans.xlsx: {reason}"
