"""Tables as sentences: one per row, naming its column headers (design §4), the same rule for every format.

The rule, for a row under a header row (cells and headers have their whitespace collapsed; blank cells are left out):

- two columns, both cells filled: "first: second" (Service | Time, Express domestic | 2 business days reads
  "Express domestic: 2 business days"): the first column names the row, the second says what it is;
- otherwise each filled cell under its header, joined by "; " ("Service: Express domestic; Time: 2 business days;
  Price: $9"); a cell whose header is blank, or that lies past the last header, stands alone;
- a row with no filled cell, or one that repeats the header row (a header repeated down a long table), gives no
  sentence ("").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def row_sentences(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """Each row's sentence, leaving out rows that give none."""
    return [sentence for row in rows if (sentence := row_sentence(headers, row))]


def row_sentence(headers: Sequence[str], row: Sequence[str]) -> str:
    """One row as a sentence naming its headers, or "" for a blank row or a repeat of the header row."""
    names = [_clean(header) for header in headers]
    cells = [_clean(cell) for cell in row]
    if not any(cells) or _same(cells, names):
        return ""
    if len(names) == 2 and len(cells) == 2 and all(cells):
        return f"{cells[0]}: {cells[1]}"
    parts = []
    for index, cell in enumerate(cells):
        if cell:
            name = names[index] if index < len(names) else ""
            parts.append(f"{name}: {cell}" if name else cell)
    return "; ".join(parts)


def _clean(text: str) -> str:
    """Collapse runs of whitespace, newlines included, to single spaces."""
    return " ".join(text.split())


def _same(cells: list[str], names: list[str]) -> bool:
    """Whether a row repeats the header row (trailing blank cells aside)."""
    while cells and not cells[-1]:
        cells = cells[:-1]
    trimmed = list(names)
    while trimmed and not trimmed[-1]:
        trimmed.pop()
    return cells == trimmed
