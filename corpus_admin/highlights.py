"""The sentences a chunk page highlights: the `?s=` of a citation's link, written from a support span's sentence
numbers and read back strictly, so the page only ever sees integers it checked (§2.7; never free text to echo)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from corpus_admin.models import chunk_url

# A support span is one or two sentences; a link asking for more than a few is not one the site wrote.
MAX_HIGHLIGHTED: Final = 3
_RANGE: Final = re.compile(r"([1-9][0-9]{0,5})(?:-([1-9][0-9]{0,5}))?")


def cited_url(chunk_id: str, sentences: Sequence[int]) -> str:
    """The chunk's page with `sentences` highlighted and scrolled to (`/chunks/<id>/?s=3-4#s-3`); the plain page
    when there are none."""
    page = chunk_url(chunk_id)
    if not sentences:
        return page
    first, last = min(sentences), max(sentences)
    query = f"{first}" if first == last else f"{first}-{last}"
    return f"{page}?s={query}#s-{first}"


def highlighted_sentences(value: str | None, count: int) -> range:
    """The sentence numbers `?s=` names: one integer `n` or a range `a-b` (a <= b) within 1..count, of at most
    MAX_HIGHLIGHTED sentences; an empty range for anything else (it is ignored, never an error)."""
    match = _RANGE.fullmatch(value or "")
    if match is None:
        return range(0)
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    if not first <= last <= count or last - first + 1 > MAX_HIGHLIGHTED:
        return range(0)
    return range(first, last + 1)
