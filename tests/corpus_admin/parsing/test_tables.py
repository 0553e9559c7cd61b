"""Tables as sentences: one per row, naming its headers."""
import pytest

from corpus_admin.parsing.tables import row_sentence, row_sentences

_SHIPPING = ["Service", "Time", "Price"]


@pytest.mark.parametrize(
    ("headers", "row", "sentence"),
    [
        (["Service", "Time"], ["Express domestic", "2 business days"],
         "Service: Express domestic; Time: 2 business days"),
        (_SHIPPING, ["Express domestic", "2 business days", "$9"],
         "Service: Express domestic; Time: 2 business days; Price: $9"),
        (_SHIPPING, ["Standard", "", "$4"], "Service: Standard; Price: $4"),
        (["Service", "Time"], ["Pickup", ""], "Service: Pickup"),
        (["Service", "Time"], ["", "5 days"], "Time: 5 days"),
        (["Plan"], ["Standard"], "Plan: Standard"),
        (["Service", "", "Price"], ["Express", "fast", "$9"], "Service: Express; fast; Price: $9"),
        (["Service", "Time"], ["Express", "2 days", "ask first"], "Service: Express; Time: 2 days; ask first"),
        (["Service", "Time"], ["  Express\n domestic ", "2\tdays"], "Service: Express domestic; Time: 2 days"),
        (["Service", "Time"], ["", " "], ""),
        (["Service", "Time"], [], ""),
        (_SHIPPING, ["Service", "Time", "Price"], ""),
        (["Service", "Time", ""], ["Service", "Time"], ""),
    ],
)
def test_row_sentence(headers: list[str], row: list[str], sentence: str) -> None:
    assert row_sentence(headers, row) == sentence


def test_row_sentences_leave_out_blank_and_repeated_header_rows() -> None:
    rows = [["Express", "2 days"], ["", ""], ["Service", "Time"], ["Standard", "5 days"]]
    assert row_sentences(["Service", "Time"], rows) == ["Service: Express; Time: 2 days",
                                                        "Service: Standard; Time: 5 days"]
