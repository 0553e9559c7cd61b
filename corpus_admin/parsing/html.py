"""HTML: headings and block text with their source line numbers; scripts, styles and the head dropped."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Final

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4.element import NavigableString, PageElement, PreformattedString, Tag

from corpus_admin.parsing.document import Event, Heading, Line, heading_path, push_heading

# Uploads are never file names or URLs, and XHTML is fine to read as HTML, so these
# bs4 hints would only be noise in the logs.
warnings.filterwarnings("ignore", category=MarkupResemblesLocatorWarning, module="bs4")
warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning, module="bs4")

_SKIPPED_TAGS: Final = frozenset({"script", "style", "noscript", "template", "head", "title", "svg", "iframe"})
_HEADING_TAGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCK_TAGS: Final = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header",
    "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "option", "p", "pre",
    "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})


def html_events(*, lines: list[str]) -> tuple[str | None, list[Event]]:
    """Extract headings and block text from HTML with source line numbers."""
    # bs4's lxml builder leaves Tag.sourceline empty; html.parser records it.
    soup = BeautifulSoup("\n".join(lines), "html.parser")
    extractor = _HtmlExtractor()
    for kind, node in _walk(soup):
        extractor.feed(kind=kind, node=node)
    extractor.flush()
    return extractor.h1 or _html_title(soup), extractor.events


def _walk(root: Tag) -> Iterator[tuple[str, PageElement]]:
    """Yield start, end and text events in document order without recursion."""
    stack: list[tuple[Tag, Iterator[PageElement]]] = [(root, iter(list(root.contents)))]
    while stack:
        tag, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                yield "end", tag
        elif isinstance(child, Tag):
            yield "start", child
            stack.append((child, iter(list(child.contents))))
        else:
            yield "text", child


def _html_title(soup: BeautifulSoup) -> str | None:
    """Return the document <title> text, ignoring titles inside inline SVG."""
    for tag in soup.find_all("title"):
        if tag.find_parent("svg") is None and (text := " ".join(tag.get_text().split())):
            return text
    return None


class _HtmlExtractor:
    """Accumulates block text per source line and emits lines at block boundaries."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.h1: str | None = None
        self._line = 1
        self._skip_depth = 0
        self._pre_depth = 0
        self._stack: tuple[tuple[int, str], ...] = ()
        self._heading: tuple[Tag, int, list[str]] | None = None
        self._buffer: dict[int, list[str]] = {}
        self._preformatted: set[int] = set()

    def feed(self, *, kind: str, node: PageElement) -> None:
        """Handle one walk event."""
        if kind == "text":
            self._text(node)
        elif kind == "start" and isinstance(node, Tag):
            self._start(node)
        elif isinstance(node, Tag):
            self._end(node)

    def _start(self, tag: Tag) -> None:
        if tag.sourceline is not None:
            self._line = tag.sourceline
        if self._skip_depth or tag.name in _SKIPPED_TAGS:
            self._skip_depth += 1
        elif self._heading is not None:
            if tag.name == "br":
                self._heading[2].append(" ")
        elif tag.name in _HEADING_TAGS:
            self.flush()
            self._heading = (tag, int(tag.name[1]), [])
        elif tag.name in _BLOCK_TAGS:
            self.flush()
        if tag.name == "pre" and not self._skip_depth:
            self._pre_depth += 1

    def _end(self, tag: Tag) -> None:
        if self._skip_depth:
            self._skip_depth -= 1
            return
        if tag.name == "pre":
            self._pre_depth -= 1
        if self._heading is not None and self._heading[0] is tag:
            _, level, parts = self._heading
            self._heading = None
            if text := " ".join("".join(parts).split()):
                self._stack = push_heading(self._stack, level=level, text=text)
                self.events.append(Heading(heading_path(self._stack)))
                self.h1 = text if self.h1 is None and level == 1 else self.h1
        elif self._heading is None and tag.name in _BLOCK_TAGS:
            self.flush()

    def _text(self, node: PageElement) -> None:
        text = str(node)
        start = self._line
        # Only tags carry a source line, so text positions are counted on from the last tag.
        self._line += text.count("\n")
        if self._skip_depth or not isinstance(node, NavigableString) or isinstance(node, PreformattedString):
            return
        if self._heading is not None:
            self._heading[2].append(text)
            return
        for offset, piece in enumerate(text.split("\n")):
            self._buffer.setdefault(start + offset, []).append(piece)
            if self._pre_depth:
                self._preformatted.add(start + offset)

    def flush(self) -> None:
        """Emit the buffered block as one line per source line."""
        for number in sorted(self._buffer):
            raw = "".join(self._buffer[number])
            text = raw.rstrip() if number in self._preformatted else " ".join(raw.split())
            if text.strip():
                self.events.append(Line(number, text))
        self._buffer.clear()
        self._preformatted.clear()
