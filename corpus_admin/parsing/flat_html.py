"""HTML that libxml2 gives up on (nesting deeper than it allows): its text, block by block, from the standard
library's streaming parser, which keeps no tree and so has no depth to run out of."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Final

from corpus_admin.parsing.document import Block, Event
from corpus_admin.parsing.prose import Prose

_SKIPPED: Final = frozenset({"head", "title", "script", "style", "noscript", "template", "svg", "iframe", "nav",
                             "aside", "button", "select"})
_BLOCKS: Final = frozenset({"address", "article", "blockquote", "br", "dd", "div", "dl", "dt", "footer", "h1", "h2",
                            "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "ol", "p", "pre", "section",
                            "table", "td", "th", "tr", "ul"})


def flat_html_events(text: str) -> list[Event]:
    """The page's text as prose blocks at their lines, scripts and chrome left out; no headings."""
    reader = _FlatReader()
    reader.feed(text)
    reader.close()
    reader.flush()
    return list(reader.blocks)


class _FlatReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self._prose = Prose(line=1)
        self._skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping.append(tag)
        elif tag in _BLOCKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()
        elif tag in _BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._prose.resync(self.getpos()[0])
            self._prose.add(data)

    def flush(self) -> None:
        if (block := self._prose.block()) is not None:
            self.blocks.append(block)
        self._prose = Prose(line=self.getpos()[0])
