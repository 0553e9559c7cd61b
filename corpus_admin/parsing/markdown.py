"""Markdown through markdown-it-py: CommonMark, with GFM tables and strikethrough, front matter, definition and field
lists.

Display text has no markup: emphasis, strikethrough, link and inline-code markers go (a link keeps its text, an image
its alt text); a paragraph, list item or quoted paragraph wrapped over several lines (`> ` lines too) is one block of
whole sentences; a table row, a definition and a field keep their headers or term (`parsing.tables`, `prose.join_term`);
a list item's paragraphs are marked as items of an ordered or bulleted list (`Block.list_item`, the innermost list's
kind); fenced and indented code stays code. Raw HTML in a Markdown file is kept as written: it is the author's text
(often the subject of the page), shown escaped and never rendered; HTML comments are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.field_list import fieldlist_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from corpus_admin.parsing.document import (
    ORDERED,
    UNORDERED,
    Block,
    Event,
    Heading,
    as_list_item,
    heading_path,
    push_heading,
)
from corpus_admin.parsing.prose import Prose, TermedEvents
from corpus_admin.parsing.tables import row_sentence

_MARKDOWN: Final = (
    MarkdownIt("commonmark")
    .enable(["table", "strikethrough"])
    .use(front_matter_plugin)
    .use(deflist_plugin)
    .use(fieldlist_plugin)
)
_FRONT_MATTER_TITLE: Final = re.compile(r"^title:\s*(.+?)\s*$")
_TERM_OPENERS: Final = frozenset({"dt_open", "fieldlist_name_open"})
_TERM_CLOSERS: Final = frozenset({"dl_close", "field_list_close"})
_LIST_OPENERS: Final = {"bullet_list_open": UNORDERED, "ordered_list_open": ORDERED}


def markdown_events(*, text: str) -> tuple[str | None, list[Event]]:
    """Headings and blocks of a Markdown text, in document order; the title is the first h1, else front matter's."""
    walker = _Walker()
    tokens = _MARKDOWN.parse(text)
    for index, token in enumerate(tokens):
        walker.feed(token, opener=tokens[index - 1].type if index else "")
    return walker.title if walker.title is not None else walker.front_title, walker.events


class _Walker(TermedEvents):
    """Turns markdown-it's flat token stream into events."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.title: str | None = None
        self.front_title: str | None = None
        self._stack: tuple[tuple[int, str], ...] = ()
        self._term: Block | None = None  # a definition's or field's term, waiting for its body
        self._row: list[str] | None = None
        self._row_line = 0
        self._headers: list[str] = []
        self._in_head = False
        self._level = 1  # of the heading being read
        self._lists: list[str] = []  # the kinds of the lists the walker is in, innermost last

    def feed(self, token: Token, *, opener: str) -> None:
        """Handle one token; `opener` is the type of the token before it (what an inline token belongs to)."""
        kind = token.type
        if kind == "inline":
            self._inline(token, opener=opener)
        elif kind in ("fence", "code_block"):
            self._code(token)
        elif kind == "html_block":
            self._html_block(token)
        elif kind in _LIST_OPENERS:
            self._lists.append(_LIST_OPENERS[kind])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self._lists.pop()
        elif kind == "heading_open":
            self._level = int(token.tag[1:])
        elif kind == "front_matter":
            self.front_title = _front_matter_title(token.content)
        elif kind in _TERM_OPENERS or kind in _TERM_CLOSERS:
            self._flush_term()
        elif kind == "thead_open":
            self._in_head = True
        elif kind == "thead_close":
            self._in_head = False
        elif kind == "table_open":
            self._headers = []
        elif kind == "tr_open":
            self._row, self._row_line = [], _first_line(token)
        elif kind == "tr_close":
            self._end_row()

    def _inline(self, token: Token, *, opener: str) -> None:
        prose = Prose(line=_first_line(token))
        _add_inline(prose, token.children or [])
        block = prose.block()
        if opener == "heading_open":
            self._heading(block)
        elif opener in ("th_open", "td_open"):
            if self._row is not None:
                self._row.append(block.text if block else "")
        elif opener in _TERM_OPENERS:
            self._term = block
        elif block is not None:
            listed = opener == "paragraph_open" and self._lists
            self._emit(as_list_item(block, self._lists[-1]) if listed else block)

    def _heading(self, block: Block | None) -> None:
        if block is None:  # an empty heading such as a lone "#" changes nothing
            return
        level = self._level
        self._flush_term()
        self._stack = push_heading(self._stack, level=level, text=block.text)
        self.events.append(Heading(heading_path(self._stack)))
        if self.title is None and level == 1:
            self.title = block.text

    def _code(self, token: Token) -> None:
        code = token.content.rstrip("\n")
        if not code.strip():
            return
        start = _first_line(token) + (1 if token.type == "fence" else 0)  # a fence's content starts after its marker
        self._emit(Block(text=code, line_start=start, line_end=start + code.count("\n"), code=True))

    def _html_block(self, token: Token) -> None:
        content = token.content.strip()
        if content.startswith("<!--") and content.endswith("-->"):
            return
        prose = Prose(line=_first_line(token))
        prose.add(token.content)
        if (block := prose.block()) is not None:
            self._emit(block)

    def _end_row(self) -> None:
        cells, self._row = self._row, None
        if not cells or not any(cells):
            return
        if self._in_head:
            self._headers = cells
            return
        if sentence := row_sentence(self._headers, cells):
            self._emit(Block(text=sentence, line_start=self._row_line, line_end=self._row_line))


def _add_inline(prose: Prose, children: Sequence[Token]) -> None:
    """Feed an inline token's text to prose, markup markers left out."""
    for child in children:
        kind = child.type
        if kind in ("text", "code_inline", "html_inline", "image"):  # an image's content is its alt text
            prose.add(child.content)
        elif kind in ("softbreak", "hardbreak"):
            prose.add("\n")


def _first_line(token: Token) -> int:
    """The 1-based first line of a block token (markdown-it's map is 0-based)."""
    return token.map[0] + 1 if token.map else 1


def _front_matter_title(content: str) -> str | None:
    for line in content.splitlines():
        if match := _FRONT_MATTER_TITLE.match(line):
            return match.group(1).strip("'\"").strip() or None
    return None
