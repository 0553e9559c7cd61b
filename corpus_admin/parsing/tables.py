"""Tables as sentences: one per row, naming its column headers (design §4), the same rule for every format.

The rule, for a row under a header row (cells and headers have their whitespace collapsed; blank cells are left out):

- each filled cell follows its header, and the cells are joined by "; ": under Service | Time | Price the row
  Express domestic | 2 business days | $9 reads "Service: Express domestic; Time: 2 business days; Price: $9", and
  under Plan | Storage the row Pro | 2 TB reads "Plan: Pro; Storage: 2 TB";
- a cell whose header is blank, or that lies past the last header, stands alone;
- a row with no filled cell, or one that repeats the header row (a header repeated down a long table), gives no
  sentence ("").

Two columns get no shorter form ("Pro: 2 TB"): the header of the value column is often the very word a question
asks with ("How much storage does Pro have?"), and retrieval, the coverage gate and the extractive reader only
see the row's own words.
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
