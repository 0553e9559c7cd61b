"""CSV through the standard library's csv module: one sheet named after the file, read like a sheet of a workbook.

The bytes are decoded like any text upload (corpus_admin.parsing.decoding: byte order marks, UTF-8, then charset
detection), the delimiter (comma, semicolon, tab or bar) is sniffed from the start, and the first filled row names
the columns of every later row (corpus_admin.parsing.sheets). A row's line numbers are the lines of the file it
spans, since a quoted cell may hold line breaks.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import Final

from corpus_admin.parsing.decoding import decode_text
from corpus_admin.parsing.document import Block, Heading
from corpus_admin.parsing.ooxml import short_reason
from corpus_admin.parsing.rejection import Reject
from corpus_admin.parsing.sheets import sheet_events

_DELIMITERS: Final = ",;\t|"
_SNIFF_CHARS: Final = 64 * 1024


def csv_events(*, content: bytes, name: str) -> tuple[str | None, list[Heading | Block]]:
    """Read a CSV file as one sheet headed by the file's name (without its extension), or reject it."""
    text = decode_text(content=content, html=False)
    if not text.strip():
        raise Reject("the file is empty")
    sheet = " ".join(PurePosixPath(name).stem.split()) or name
    return None, sheet_events(sheet=sheet, rows=_rows(text))


def _rows(text: str) -> Iterator[tuple[int, int, Sequence[str]]]:
    """Each record with the first and last line of the file it spans."""
    reader = csv.reader(io.StringIO(text, newline=""), dialect=_dialect(text))
    start = 1
    try:
        for cells in reader:
            yield start, reader.line_num, cells
            start = reader.line_num + 1
    except csv.Error as error:
        raise Reject(f"unreadable CSV: line {reader.line_num}: {short_reason(error)}") from None


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """The sniffed dialect of the file's start, or plain comma-separated values when sniffing cannot tell."""
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS:
        sample = sample.rsplit("\n", 1)[0]  # whole lines only: a cut line could read as another dialect
    try:
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS)
    except csv.Error:
        return csv.excel
