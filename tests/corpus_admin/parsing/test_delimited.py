"""CSV: one sheet named after the file, its delimiter and encoding detected, rows numbered by the lines they span."""
import pytest

from corpus_admin.parsing.delimited import csv_events
from corpus_admin.parsing.document import Block, Heading
from corpus_admin.testing import outline, parse, rejection


def test_rows_name_their_headers_under_the_file_name_with_the_lines_they_span() -> None:
    content = b'Service,Time,Price\r\nExpress domestic,"2 business\r\ndays",$9\r\n\r\nStandard,5 business days,$4\r\n'

    title, found = csv_events(content=content, name="Shipping rates.csv")

    assert title is None
    assert found == [
        Heading(("Shipping rates",)),
        Block("Service: Express domestic; Time: 2 business days; Price: $9", 2, 3),
        Block("Service: Standard; Time: 5 business days; Price: $4", 5, 5),
    ]


@pytest.mark.parametrize(
    ("content", "rows"),
    [
        ("Plan;Price\nStandard;19,00 €\nPro;49,00 €\n".encode(),
         ["Plan: Standard; Price: 19,00 €", "Plan: Pro; Price: 49,00 €"]),
        (b"Plan\tPrice\nStandard\t$19\n", ["Plan: Standard; Price: $19"]),
        (b"Plan|Price\nStandard|$19\n", ["Plan: Standard; Price: $19"]),
        ("\ufeffPlan,Price\nStandard,$19\n".encode(), ["Plan: Standard; Price: $19"]),
        ("Ville,Fuseau\nZürich,Europe/Zurich\nMontréal,America/Toronto\n".encode("cp1252"),
         ["Ville: Zürich; Fuseau: Europe/Zurich", "Ville: Montréal; Fuseau: America/Toronto"]),
        ("Plan,Price\nStandard,$19\n".encode("utf-16"), ["Plan: Standard; Price: $19"]),
    ],
    ids=["semicolon", "tab", "bar", "utf-8-bom", "cp1252", "utf-16"],
)
def test_delimiter_and_encoding_are_detected(content: bytes, rows: list[str]) -> None:
    _, found = csv_events(content=content, name="plans.csv")

    assert [event.text for event in found if isinstance(event, Block)] == rows


def test_csv_through_dispatch_is_text_csv_with_one_section() -> None:
    document = parse("plans.csv", b"Plan,Price\nPro,$49\n")

    assert document.media_type == "text/csv"
    assert outline(document) == [(("plans",), [(2, "Plan: Pro; Price: $49")])]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(32), "binary content, not text"),
        (b"Plan,Price\x00\nPro,1\n", "binary content, not text"),
        (b" \r\n \n", "the file is empty"),
        (b"Plan,Price\n", "the file has no body text (only headings or markup)"),
        (b'Plan,Price\nPro,"' + b"x" * 200_000 + b'"\n',
         "unreadable CSV: line 2: field larger than field limit (131072)"),
    ],
    ids=["png", "nul", "blank", "headers-only", "huge-cell"],
)
def test_csv_rejections_name_the_reason(content: bytes, reason: str) -> None:
    assert str(rejection("plans.csv", content)) == f"plans.csv: {reason}"
