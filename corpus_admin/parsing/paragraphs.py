"""Paragraphs of formats that have only lines (plain text, a PDF page's text layer): lines joined into blocks.

A paragraph ends at a blank line; a list item ("- ", "• ", "1. ", "a) ") starts a new one, without its mark; so
does the line after a short heading-like line (at most six words, no end punctuation, the next line capitalised),
and the line after one that ends a sentence well short of the longest line (a paragraph's last line, where a text
layer has no blank lines between paragraphs). Lines wrapped inside a paragraph are joined back into one line of
prose, each word keeping its own line number; so are a quote's "> " lines, without their marks (a quote is a
paragraph of its own).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from corpus_admin.parsing.document import ORDERED, UNORDERED, Block, as_list_item
from corpus_admin.parsing.prose import Prose

_LIST_ITEM: Final = re.compile(r"^\s*(?:(?P<bullet>[-*+•▪‣◦–])|\(?\d{1,3}[.)]|\(?[a-z]\))\s+(?=\S)")
_QUOTE: Final = re.compile(r"^(?:>[ \t]?)+")
_HEADING_WORDS: Final = 6
_SENTENCE_END: Final = tuple(".!?:")
_SHORT_LINE: Final = 0.7  # of the longest line: shorter and ending a sentence, the line ends its paragraph


def paragraph_blocks(lines: Sequence[tuple[int, str]], *, page: int | None = None,
                     longest: int | None = None) -> list[Block]:
    """Group numbered lines into paragraph blocks by the module's rules (`longest`: of the page they are part of)."""
    if longest is None:
        longest = max((len(text.strip()) for _, text in lines), default=0)
    blocks: list[Block] = []
    prose: Prose | None = None
    kind = ""  # the paragraph's list item mark
    previous = ""  # the paragraph's last line so far
    count = 0  # its lines so far
    quoted = False  # whether the paragraph is a quote ("> " lines)
    for number, raw in lines:
        text = raw.strip()
        marks = _QUOTE.match(text)
        if marks:
            text = text[marks.end():].strip()
        if prose is not None and (not text or bool(marks) != quoted or _starts_paragraph(
                text, previous=previous, count=count, longest=longest)):
            _finish(prose, blocks, page=page, kind=kind)
            prose = None
        quoted = bool(marks)
        if not text:
            continue
        if prose is None:
            prose, count = Prose(line=number), 0
            item = _LIST_ITEM.match(text)
            kind = "" if item is None else UNORDERED if item.group("bullet") else ORDERED
            text = text[item.end():] if item else text  # the item's text, not its bullet or number
        prose.resync(number)
        prose.add_space()
        prose.add(text)
        previous, count = text, count + 1
    if prose is not None:
        _finish(prose, blocks, page=page, kind=kind)
    return blocks


def _starts_paragraph(text: str, *, previous: str, count: int, longest: int) -> bool:
    """Whether the line `text` begins a new paragraph after `previous`, the last of `count` lines so far."""
    if _LIST_ITEM.match(text):
        return True
    if count == 1 and len(previous.split()) <= _HEADING_WORDS and not previous.endswith((*_SENTENCE_END, ",", ";")) \
            and (text[0].isupper() or text[0].isdigit()):
        return True
    return previous.endswith(_SENTENCE_END) and len(previous) < _SHORT_LINE * longest


def _finish(prose: Prose, blocks: list[Block], *, page: int | None, kind: str) -> None:
    if (block := prose.block(page=page)) is not None:
        blocks.append(as_list_item(block, kind))
