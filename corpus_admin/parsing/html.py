"""HTML through lxml (libxml2's HTML parser): headings and blocks at their source lines, the site's chrome dropped.

Dropped: the head, scripts, styles, templates, embedded SVG and frames, forms' buttons and menus, hidden elements,
and the site's navigation, headers and footers: `nav`, `aside`, `header` and `footer` outside the page's `article`
or `main`, ARIA landmarks of site chrome (role=navigation, banner, contentinfo, search, complementary), and the
usual classes of documentation generators' chrome (DocBook's `navheader`/`navfooter`, as in the PostgreSQL manual;
Sphinx's `related` bar and sidebar; breadcrumbs and skip links). Tags are gone from the text and entities decoded;
a paragraph wrapped over lines is one block; the text of an `li` is marked as an item of an ordered (`ol`) or
bulleted list (`Block.list_item`); `pre` is code; a data table gives a block per row naming its headers
(`parsing.tables`); a `dt` term stays with its `dd`. A table whose cells hold headings or other tables is layout:
its cells are read as ordinary blocks. A first heading that writes the page's <title> heads the page: its later
headings of the same level sit under it (DocBook's reference pages title the command with the h2 its sections use).

lxml rather than BeautifulSoup: bs4 over lxml records no source line for a tag (only its slow html.parser
builder does), and building its tree cost 9 ms a page of the PostgreSQL manual against lxml's 0.3 ms; lxml is the
same libxml2 parser bs4 would use, and keeps every element's line.
"""

from __future__ import annotations

from typing import Final

from lxml import etree

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
from corpus_admin.parsing.flat_html import flat_html_events
from corpus_admin.parsing.prose import Prose, TermedEvents
from corpus_admin.parsing.tables import row_sentence

_DROPPED_TAGS: Final = frozenset({
    "head", "title", "script", "style", "noscript", "template", "svg", "iframe", "object", "embed", "canvas",
    "audio", "video", "nav", "aside", "button", "select", "datalist", "dialog",
})
_PAGE_PARTS: Final = frozenset({"header", "footer"})  # chrome unless inside the page's article or main
# The same parts named by class or id ("<div class="footer">": Sphinx's copyright and "Created using Sphinx" lines;
# "<div id="banner">": Publican's "Download the ebook"), chrome on the same terms.
_PAGE_PART_NAMES: Final = frozenset({"header", "footer", "banner"})
_CHROME_ROLES: Final = frozenset({"navigation", "banner", "contentinfo", "search", "complementary", "menu",
                                  "menubar", "toolbar"})
_CHROME_CLASSES: Final = frozenset({
    "navheader", "navfooter",  # DocBook (the PostgreSQL manual)
    "docnav",  # Publican's DocBook (the Debian handbook): the Prev / Up / Home / Next lists at the top and bottom
    "related", "sphinxsidebar", "sphinxsidebarwrapper", "headerlink",  # Sphinx (headerlink: a heading's "¶" anchor)
    "breadcrumb", "breadcrumbs", "skip-link", "skiplink", "site-header", "site-footer", "site-nav",
})
_HEADING_TAGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# DocBook's admonitions title themselves with a heading (`<div class="note"><h3 class="title">Note</h3>`): that is a
# label inside the section, not a section, so the text after it keeps its section's heading path.
_ADMONITIONS: Final = frozenset({"note", "tip", "caution", "warning", "important"})
_BLOCK_TAGS: Final = frozenset({
    "address", "article", "blockquote", "body", "br", "caption", "center", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "legend", "li", "main",
    "menu", "ol", "option", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "ul", *_HEADING_TAGS,
})
_LAYOUT_INSIDE_CELL: Final = ".//table | .//h1 | .//h2 | .//h3 | .//h4 | .//h5 | .//h6"


def html_events(*, text: str) -> tuple[str | None, list[Event]]:
    """Headings and blocks of an HTML page with their source lines; the title is the first h1, else <title>."""
    # A parser per page: lxml's parsers must not be shared between threads.
    parser = etree.HTMLParser(encoding="utf-8", remove_pis=True, huge_tree=True, no_network=True)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.Error:
        root = None
    fatal = {entry.type_name for entry in parser.error_log if entry.level_name == "FATAL"}
    if "ERR_NO_MEMORY" in fatal:
        raise MemoryError("libxml2 ran out of memory")  # the parse worker's memory limit, reported as such
    if fatal:
        return None, flat_html_events(text)  # libxml2 gave up part way (nesting over 2048 deep): text it can't read
    if root is None:  # nothing but comments or whitespace
        return None, []
    title = _html_title(root)
    walker = _Walker(title=title)
    walker.walk(root)
    return walker.h1 or title, walker.events


def _admonition_title(element: etree._Element) -> bool:
    """Whether a heading element is the title of an admonition (its parent's class names one), not a section's."""
    parent = element.getparent()
    classes = (parent.get("class") if parent is not None else None) or ""
    return not _ADMONITIONS.isdisjoint(classes.split())


def _dropped(element: etree._Element) -> bool:
    """Whether an element is chrome or hidden, and its text not the page's."""
    tag = element.tag
    if not isinstance(tag, str) or tag in _DROPPED_TAGS:
        return True
    get = element.get
    if get("hidden") is not None or get("aria-hidden") == "true" or get("role") in _CHROME_ROLES:
        return True
    if (style := get("style")) and "display:none" in style.replace(" ", "").lower():
        return True
    if (classes := get("class")) and not _CHROME_CLASSES.isdisjoint(classes.split()):
        return True
    named = not _PAGE_PART_NAMES.isdisjoint((classes or "").split()) or get("id") in _PAGE_PART_NAMES
    return (tag in _PAGE_PARTS or named) and next(element.iterancestors("article", "main"), None) is None


class _Walker(TermedEvents):
    """Walks the tree once, in document order, collecting the text between block boundaries."""

    def __init__(self, *, title: str | None = None) -> None:
        self.events: list[Event] = []
        self.h1: str | None = None
        self._title = title
        # The level of a first heading that names the page (writes its <title>): DocBook titles a reference page
        # (`refentry`: "pg_isready", "CREATE TABLE"; ECPG's "CONNECT") with an h2 and its sections ("Synopsis",
        # "Options", "Notes") with h2s too, beside it; they are that page's sections, so every later heading at or
        # below that level goes one level deeper, under the page's name.
        self._title_level: int | None = None
        self._headings = 0
        self._stack: tuple[tuple[int, str], ...] = ()
        self._prose = Prose(line=1)
        self._term: Block | None = None
        self._items: list[tuple[etree._Element, str]] = []  # the li elements being read, innermost last

    def walk(self, root: etree._Element) -> None:
        walker = etree.iterwalk(root, events=("start", "end", "comment"))
        for event, element in walker:
            if event == "start":
                if self._start(element):
                    walker.skip_subtree()  # read whole, or dropped; its "end" still comes, for its tail
            elif event == "end":
                self._end(element)
            else:  # a comment: nothing to read but its lines, and the text after it
                self._prose.skip_lines(element.text.count("\n") if element.text else 0)
                if element.tail:
                    self._prose.add(element.tail)
        self._flush()
        self._flush_term()

    def _start(self, element: etree._Element) -> bool:
        """Handle an opening tag; True when its content was read (or dropped) here and must not be walked."""
        self._prose.resync(element.sourceline)
        if element.tag in _DROPPED_TAGS and not len(element) and element.text:
            self._prose.skip_lines(element.text.count("\n"))  # a script's or style's lines
        if _dropped(element):
            self._prose.add_space()  # "Read<button>Copy</button>more" is two words without the button
            return True
        tag = element.tag
        if tag in _BLOCK_TAGS:
            self._flush()
        if tag in _HEADING_TAGS:
            if not _admonition_title(element):
                self._heading(element)
            return True
        if tag == "pre":
            self._code(element)
            return True
        if tag == "dt":
            self._flush_term()
            self._term = _prose_of(element).block()
            return True
        if tag == "table" and self._table(element):
            return True
        if tag == "li":
            parent = element.getparent()
            self._items.append((element, ORDERED if parent is not None and parent.tag == "ol" else UNORDERED))
        if element.text:
            self._prose.add(element.text)
        return False

    def _end(self, element: etree._Element) -> None:
        tag = element.tag
        if tag in _BLOCK_TAGS:
            self._flush()
        if self._items and self._items[-1][0] is element:
            self._items.pop()
        if tag == "dl":
            self._flush_term()
        if element.tail:
            self._prose.add(element.tail)

    def _heading(self, element: etree._Element) -> None:
        block = _prose_of(element).block()
        if block is None:
            return
        self._flush_term()
        level = int(element.tag[1])
        self._headings += 1
        if self._headings == 1 and self._title is not None and " ".join(block.text.split()) == self._title:
            self._title_level = level
        elif self._title_level is not None and level >= self._title_level:
            level += 1
        self._stack = push_heading(self._stack, level=level, text=block.text)
        self.events.append(Heading(heading_path(self._stack)))
        if self.h1 is None and level == 1:
            self.h1 = block.text

    def _code(self, element: etree._Element) -> None:
        code = "".join(_texts(element)).strip("\n").rstrip()
        if not code.strip():
            return
        start = element.sourceline or self._prose.line
        if element.text and element.text.startswith("\n"):
            start += 1  # the newline right after <pre> is not part of its text
        self._emit(Block(text=code, line_start=start, line_end=start + code.count("\n"), code=True))

    def _table(self, table: etree._Element) -> bool:
        """Emit a data table's caption and rows; False for a layout table, whose cells are walked as blocks."""
        rows = table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")
        grid = [row.xpath("./th | ./td") for row in rows]
        if any(cell.xpath(_LAYOUT_INSIDE_CELL) for cells in grid for cell in cells):
            return False
        for caption in table.iterchildren("caption"):
            if (block := _prose_of(caption).block()) is not None:
                self._emit(block)
        headers: list[str] = []
        header_line, emitted = 0, False
        for index, (row, cells) in enumerate(zip(rows, grid, strict=True)):
            texts = [(block.text if (block := _prose_of(cell).block()) else "") for cell in cells]
            if not any(texts):
                continue
            line = row.sourceline or self._prose.line
            if row.getparent().tag == "thead" or (index == 0 and all(cell.tag == "th" for cell in cells)):
                headers, header_line = texts, line
                continue
            if sentence := row_sentence(headers, texts):
                self._emit(Block(text=sentence, line_start=line, line_end=line))
                emitted = True
        if headers and not emitted:  # a table of headers only: they are its text
            self._emit(Block(text=row_sentence([], headers), line_start=header_line, line_end=header_line))
        return True

    def _flush(self) -> None:
        """End the block being collected, if it has words."""
        if self._prose.empty():
            return
        block = self._prose.block()
        self._prose = Prose(line=self._prose.line)
        if block is not None:
            self._emit(as_list_item(block, self._items[-1][1]) if self._items else block)


def _prose_of(element: etree._Element) -> Prose:
    """An element's visible text as one block (a heading, term or table cell): block boundaries become spaces."""
    prose = Prose(line=element.sourceline or 1)
    walker = etree.iterwalk(element, events=("start", "end", "comment"))
    for event, node in walker:
        if event == "comment":
            if node.tail:
                prose.add(node.tail)
        elif event == "start":
            prose.resync(node.sourceline)
            if node is not element and _dropped(node):
                walker.skip_subtree()
                continue
            if node.tag in _BLOCK_TAGS:
                prose.add_space()
            if node.text:
                prose.add(node.text)
        elif node is not element:
            if node.tag in _BLOCK_TAGS:
                prose.add_space()
            if node.tail:
                prose.add(node.tail)
    return prose


def _texts(element: etree._Element) -> list[str]:
    """An element's text pieces in order (code keeps every character), dropped elements left out."""
    pieces: list[str] = []
    walker = etree.iterwalk(element, events=("start", "end", "comment"))
    for event, node in walker:
        if event == "comment":
            if node.tail:
                pieces.append(node.tail)
        elif event == "start":
            if node is not element and _dropped(node):
                walker.skip_subtree()
                continue
            if node.tag == "br":
                pieces.append("\n")
            if node.text:
                pieces.append(node.text)
        elif node is not element and node.tail:
            pieces.append(node.tail)
    return pieces


def _html_title(root: etree._Element) -> str | None:
    """Return the document <title> text, ignoring titles inside inline SVG."""
    for title in root.iter("title"):
        if next(title.iterancestors("svg"), None) is None and (text := " ".join("".join(title.itertext()).split())):
            return text
    return None
