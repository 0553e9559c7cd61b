"""XLSX through openpyxl (read-only, cached values): a heading per sheet, a block per row naming its headers.

A sheet's header row is its first row with two or more filled cells; every later row with a filled cell is one
block naming the headers (corpus_admin.parsing.tables), numbered by its row in the sheet, and a one-cell row above
the headers (a title, a note) is a block of its own. Formulas give the value Excel last saved with the file (none
if it never computed them); numbers read as the cell shows them where that is simple (percentages, a currency
sign, fixed decimals), dates as ISO dates. Hidden sheets are left out; so are charts and images (no cell text).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

import openpyxl
from openpyxl.workbook.workbook import Workbook

from corpus_admin.parsing.document import Block, Heading
from corpus_admin.parsing.ooxml import WORKBOOK, check_package, unreadable
from corpus_admin.parsing.tables import row_sentence

_CURRENCIES: Final = "$€£¥"
_LOCALE_SIGN: Final = re.compile(r"\[\$([^\]-]*)[^\]]*\]")  # [$€-407]: a currency sign with a locale
_BRACKETED: Final = re.compile(r"\[[^\]]*\]")  # [Red], [h], [>100]: colours, durations, conditions
_LITERALS: Final = re.compile(r'"[^"]*"|\\.')  # quoted text and escaped characters
_DECIMALS: Final = re.compile(r"[0#?]\.([0#?]+)")


def xlsx_events(*, content: bytes, name: str) -> tuple[str | None, list[Heading | Block]]:
    """Read a workbook's title and, sheet by sheet, its heading and row blocks, or reject it."""
    check_package(content=content, main_type=WORKBOOK)
    with unreadable("XLSX"):
        workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        try:
            return _read(workbook)
        finally:
            workbook.close()


def sheet_events(*, sheet: str, rows: Iterable[tuple[int, int, Sequence[str]]]) -> list[Heading | Block]:
    """A sheet's heading, then a block per row under its header row.

    `rows` are (first line, last line, cells): a sheet's row number twice, or the lines of a CSV record. The header
    row is the first with two or more filled cells; a row above it with one filled cell (a title or a note over the
    table) is a block of its own. In a sheet of one column, the first filled row is the header.
    """
    events: list[Heading | Block] = [Heading((sheet,))]
    headers: Sequence[str] | None = None
    above: list[tuple[int, int, Sequence[str]]] = []  # one-cell rows before the header row
    for first, last, cells in rows:
        if headers is not None:
            if text := row_sentence(headers, cells):
                events.append(Block(text=text, line_start=first, line_end=last))
        elif _filled(cells) >= 2:
            events.extend(Block(text=" ".join("".join(row).split()), line_start=start, line_end=end)
                          for start, end, row in above)
            headers = cells
        elif _filled(cells):
            above.append((first, last, cells))
    if headers is None and above:  # one column: its first filled cell is the header
        (_, _, headers), *below = above
        events.extend(Block(text=text, line_start=start, line_end=end)
                      for start, end, cells in below if (text := row_sentence(headers, cells)))
    return events


def _filled(cells: Sequence[str]) -> int:
    """How many cells hold something other than whitespace."""
    return sum(1 for cell in cells if cell.strip())


def _read(workbook: Workbook) -> tuple[str | None, list[Heading | Block]]:
    """Read every visible worksheet in tab order."""
    events: list[Heading | Block] = []
    for sheet in workbook.worksheets:
        if sheet.sheet_state != "visible":
            continue
        # Some writers declare a wrong used range; read the rows the sheet really has.
        sheet.reset_dimensions()
        rows = ((number, number, [cell_text(cell.value, getattr(cell, "number_format", None)) for cell in row])
                for number, row in enumerate(sheet.iter_rows(), start=1))
        events.extend(sheet_events(sheet=" ".join(sheet.title.split()), rows=rows))
    title = workbook.properties.title if workbook.properties else None
    return " ".join((title or "").split()) or None, events


def cell_text(value: Any, number_format: str | None) -> str:
    """A cell's value as text, close to how Excel shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.time):
        return value.isoformat(timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int | float):
        return _number_text(value, number_format or "General")
    return str(value)


def _number_text(value: float, number_format: str) -> str:
    """A number shown through the simple parts of its format: percent, currency sign, fixed decimals."""
    section = _LOCALE_SIGN.sub(r'"\1"', number_format.split(";", 1)[0])  # the format for positive numbers
    plain = _BRACKETED.sub("", section)
    bare = _LITERALS.sub("", plain)
    suffix = "%" if "%" in bare else ""
    if suffix:
        value *= 100
    decimals = _DECIMALS.search(bare)
    if decimals:
        text = f"{value:.{len(decimals.group(1))}f}"
    elif float(value).is_integer() and abs(value) < 1e15:
        text = str(int(value))
    else:
        text = format(value, ".15g")  # the 15 significant digits Excel shows
    sign = next((char for char in plain if char in _CURRENCIES), "")
    if not sign:
        return text + suffix
    digit = next((index for index, char in enumerate(plain) if char in "0#?"), -1)
    digits = text.removeprefix("-")
    money = f"{digits} {sign}" if 0 <= digit < plain.index(sign) else f"{sign}{digits}"
    return f"-{money}{suffix}" if text.startswith("-") else money + suffix
