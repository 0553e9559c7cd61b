"""Table rows as sentences that name their columns, the same for every format that has tables.

The rule, for a row's cells (display text, empty ones left out) under the table's header cells:

- two columns: the first cell names the row, the second is its value: "Express domestic: 2 business days";
- any other number of columns: each cell after its column's header, in order, separated by semicolons:
  "Plan: Standard; Price: $19 per month; Seats: 5" (a cell whose header is empty, missing or the cell's own text
  stands alone).

The header row is not a row of its own: its words are in every other row (two-column tables aside, where the
first column names the row and "Plan: Price" would read as a claim).
"""

from __future__ import annotations

from collections.abc import Sequence


def row_text(cells: Sequence[str], *, headers: Sequence[str] = ()) -> str:
    """One table row as display text, naming its headers by the module's rule."""
    if len(cells) == 2:
        return ": ".join(cell for cell in cells if cell)
    parts = []
    for index, cell in enumerate(cells):
        if not cell:
            continue
        header = headers[index] if index < len(headers) else ""
        parts.append(f"{header}: {cell}" if header and header != cell else cell)
    return "; ".join(parts)
