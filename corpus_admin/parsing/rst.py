"""reStructuredText through docutils (with `rst_sphinx`'s roles and directives): sections, blocks, their lines.

docutils is the reference implementation of reST, maintained with Python's own docs tooling, and Sphinx's parser
underneath; its doctree keeps each paragraph's, literal block's and list item's line, so every block keeps its line
range. Only its parser runs (no transforms, no writer): the doctree is read as it comes. It never touches the file
system (`include`, `raw` and file options are off), never prints (reports go nowhere) and never stops on an error: what
it cannot read is left out, a line over its line-length limit or a crash inside it makes the file plain text.

What a reader sees: section titles are the heading path; roles are their text; a definition, field or option keeps its
term ("Default: 1209600 (2 weeks, in seconds)"); a table row names its headers (`parsing.tables`); literal blocks
(``::``, code-block) are code; quotes and list items are prose (an item marked as one of an enumerated or bullet list,
`Block.list_item`); comments, targets and substitution definitions are dropped (a substitution reference shows its
replacement); footnote markers are left out, since "[1]" would read as a citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from docutils import frontend, nodes
from docutils.parsers.rst import Parser, languages
from docutils.utils import new_document

from corpus_admin.parsing import rst_sphinx
from corpus_admin.parsing.document import ORDERED, UNORDERED, Block, Event, Heading, as_list_item
from corpus_admin.parsing.paragraphs import paragraph_blocks
from corpus_admin.parsing.prose import Prose, TermedEvents
from corpus_admin.parsing.tables import row_sentence
from corpus_admin.parsing.text import text_events

_LINE_LENGTH_LIMIT: Final = 10_000  # docutils' own guard against slow inline parsing; longer lines: plain text
# Characters str.splitlines() (and so docutils) breaks lines at, beyond the newlines split_lines knows.
_OTHER_LINE_BREAKS: Final = re.compile("[\x1c\x1d\x1e\x85\u2028\u2029]")
_DIRECTIVE_NAME: Final = re.compile(r"^[ \t]*\.\.[ \t]+([A-Za-z0-9][\w:.+-]*?)[ \t]?::", re.MULTILINE)
_SKIPPED: Final = (nodes.comment, nodes.substitution_definition, nodes.target, nodes.pending, nodes.raw,
                   nodes.transition, nodes.label, nodes.colspec, nodes.decoration, nodes.image)
_INLINE_SKIPPED: Final = (nodes.footnote_reference, nodes.citation_reference, nodes.raw, nodes.system_message,
                          nodes.comment)
_CODE: Final = (nodes.literal_block, nodes.doctest_block, nodes.math_block)
_TEXT_BLOCKS: Final = (nodes.paragraph, nodes.rubric, nodes.line, nodes.attribution, nodes.caption, nodes.title,
                       nodes.subtitle)
_TERMED: Final = (nodes.definition_list_item, nodes.field, nodes.option_list_item)
# What only reST says: an explicit-markup directive ("\n.. note::") or an interpreted-text role (":ref:`x`").
_RST_SIGNS: Final = re.compile(r"^[ \t]*\.\.[ \t]+[A-Za-z][\w:.+-]*::|:[A-Za-z][\w:+.-]*:`[^`\n]+`", re.MULTILINE)
_OPTION_LINE: Final = re.compile(r"^\s+:[^:\s][^:]*:")
_CONTENT_MARKS: Final = re.compile(r"^[\s*+|-]+")  # list-table's "* - " and grid lines' "|"
_TITLE_MESSAGES: Final = ("Title level inconsistent", "Unexpected section title")

rst_sphinx.register()


class _Discard:
    """A warning stream that keeps nothing (docutils reports nothing at report level 5 anyway)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        return None


def _settings() -> Any:
    settings = frontend.get_default_settings(Parser)
    settings.report_level = 5  # above SEVERE: no report is ever written
    settings.halt_level = 5  # no report ever stops the parse
    settings.warning_stream = _Discard()
    settings.file_insertion_enabled = False  # no include, no csv-table file or URL
    settings.raw_enabled = False
    settings.syntax_highlight = "none"
    settings.line_length_limit = _LINE_LENGTH_LIMIT
    settings.language_code = "en"
    return settings


_SETTINGS: Final = _settings()
_LANGUAGE: Final = languages.get_language("en")


def reads_as_rst(text: str) -> bool:
    """Whether a text file is reST in a plain-text name (Sphinx projects such as Django's docs use .txt)."""
    return _RST_SIGNS.search(text) is not None


def rst_events(*, text: str) -> tuple[str | None, list[Event]]:
    """Headings and blocks of a reST text; the title is the first section title."""
    text = _OTHER_LINE_BREAKS.sub(" ", text)
    if any(len(line) > _LINE_LENGTH_LIMIT for line in text.split("\n")):
        return text_events(text=text)
    try:
        document = new_document("<upload>", _SETTINGS)
        rst_sphinx.register_unknown({name.lower() for name in _DIRECTIVE_NAME.findall(text)},
                                    language=_LANGUAGE, document=document)
        # A parser and inliner per document: the inliner adds its URI rule to a list at every parse, so a shared
        # one gets slower with every file.
        Parser(inliner=rst_sphinx.inliner()).parse(text, document)
        walker = _Walker(document)
        walker.walk()
    except MemoryError:
        raise
    except Exception:  # docutils on input it was never meant for (RecursionError on deep nesting, among others)
        return text_events(text=text)
    return walker.title, walker.events


class _Walker(TermedEvents):
    """Reads a doctree in document order, without recursion (a deeply nested tree is fine)."""

    def __init__(self, document: nodes.document) -> None:
        self.document = document
        self.events: list[Event] = []
        self.title: str | None = None
        self._path: list[str] = []
        self._term: Block | None = None
        self._line = 1  # the last line seen, for nodes that carry none

    def walk(self) -> None:
        stack: list[tuple[nodes.Node, Iterator[nodes.Node]]] = [(self.document, iter(self.document.children))]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                self._leave(node)
                continue
            if (grandchildren := self._enter(child)) is not None:
                stack.append((child, iter(grandchildren)))
        self._flush_term()

    def _enter(self, node: nodes.Node) -> list[nodes.Node] | None:
        """Handle a node; return the children still to walk, or None when it was read whole (or dropped)."""
        if isinstance(node, nodes.Element) and node.line:
            self._line = max(self._line, node.line)
        if isinstance(node, nodes.system_message):
            self._recover(node)
            return None
        if isinstance(node, _SKIPPED) or not isinstance(node, nodes.Element):
            return None
        if isinstance(node, nodes.section):
            return self._section(node)
        if isinstance(node, _CODE):
            self._code(node)
            return None
        if isinstance(node, _TEXT_BLOCKS):
            self._text_block(node)
            return None
        if isinstance(node, nodes.table):
            self._table(node)
            return None
        if isinstance(node, _TERMED):
            return self._termed(node)
        if isinstance(node, nodes.container) and node.get(rst_sphinx.TERM):
            self._flush_term()
            self._term = Block(text=node[rst_sphinx.TERM], line_start=node.line or self._line,
                               line_end=node.line or self._line)
        return list(node.children)

    def _leave(self, node: nodes.Node) -> None:
        if isinstance(node, nodes.section) and self._path:
            self._path.pop()
        if isinstance(node, (nodes.container, *_TERMED, nodes.definition_list, nodes.field_list)):
            self._flush_term()  # a term whose body held no prose stands alone

    def _section(self, section: nodes.section) -> list[nodes.Node]:
        self._flush_term()
        title = next((child for child in section.children if isinstance(child, nodes.title)), None)
        block = self._prose(title).block() if title is not None else None
        heading = block.text if block is not None else ""
        self._path.append(heading)
        self.events.append(Heading(tuple(text for text in self._path if text)))
        if self.title is None and heading:
            self.title = heading
        return [child for child in section.children if child is not title]

    def _termed(self, node: nodes.Element) -> list[nodes.Node]:
        """A definition list item, field or option: its term waits for the first block of its body."""
        self._flush_term()
        terms = [child for child in node.children
                 if isinstance(child, (nodes.term, nodes.classifier, nodes.field_name, nodes.option_group))]
        parts: list[tuple[nodes.Node, str]] = []
        for term in terms:
            if isinstance(term, nodes.option_group):  # "-v, --verbose": docutils joins the options
                text = " ".join(term.astext().split())
            else:
                text = block.text if (block := self._prose(term).block()) is not None else ""
            if text:
                parts.append((term, text))
        if parts:
            text = parts[0][1] + "".join(f" ({text})" if isinstance(term, nodes.classifier) else f", {text}"
                                         for term, text in parts[1:])
            line = node.line or self._line
            self._term = Block(text=text, line_start=line, line_end=line)
        return [child for child in node.children if child not in terms]

    def _text_block(self, node: nodes.Element) -> None:
        if isinstance(node, nodes.title):  # a topic's, sidebar's or admonition's title: the term of what follows
            self._flush_term()
            self._term = self._prose(node).block()
            return
        if (block := self._prose(node).block()) is not None:
            self._emit(as_list_item(block, _list_kind(node)))

    def _code(self, node: nodes.Element) -> None:
        code = node.astext().strip("\n").rstrip()
        if code.strip():
            start = node.line or self._line
            self._emit(Block(text=code, line_start=start, line_end=start + code.count("\n"), code=True))

    def _table(self, table: nodes.table) -> None:
        for title in table.findall(nodes.title, include_self=False, descend=False):
            self._text_block(title)
        headers: list[str] = []
        for group in table.findall(nodes.tgroup):
            for part in group.children:
                for row in part.children if isinstance(part, (nodes.thead, nodes.tbody)) else ():
                    cells = [self._cell_text(entry) for entry in row.children]
                    if not any(cells):
                        continue
                    if isinstance(part, nodes.thead):
                        headers = cells
                        continue
                    line = next((node.line for node in row.findall(nodes.Element) if node.line), self._line)
                    self._line = max(self._line, line)
                    if sentence := row_sentence(headers, cells):
                        self._emit(Block(text=sentence, line_start=line, line_end=line))

    def _cell_text(self, entry: nodes.Node) -> str:
        prose = Prose(line=self._line)
        for node in entry.findall(nodes.Element):
            if isinstance(node, _TEXT_BLOCKS):
                prose.add_space()
                self._add_inline(prose, node)
        block = prose.block()
        return block.text if block is not None else ""

    def _recover(self, message: nodes.system_message) -> None:
        """What docutils refused is still the page's text: a title at an inconsistent level (or inside a quote or
        directive), or the content of a directive that failed (a broken list-table, say)."""
        reason = message.children[0].astext() if message.children else ""
        literal = next(message.findall(nodes.literal_block), None)
        if literal is None or message.get("level", 0) < 3:
            return
        line = message.get("line") or self._line
        if reason.startswith(_TITLE_MESSAGES):
            words = [text for text in (raw.strip() for raw in literal.astext().splitlines())
                     if text and not _is_adornment(text)]
            if not words:
                return
            self._flush_term()
            if reason.startswith(_TITLE_MESSAGES[0]):
                self.events.append(Heading(tuple(text for text in (*self._path, words[0]) if text)))
            else:
                self._emit(Block(text=words[0], line_start=line, line_end=line))
        elif literal.astext().startswith(".."):
            for block in paragraph_blocks(_directive_content(literal.astext(), line=line)):
                self._emit(block)

    def _prose(self, node: nodes.Element) -> Prose:
        prose = Prose(line=node.line or self._line)
        self._add_inline(prose, node)
        return prose

    def _add_inline(self, prose: Prose, node: nodes.Element) -> None:
        """Feed an element's inline text to prose: roles and references as their text, markers left out."""
        stack: list[nodes.Node] = list(reversed(node.children))
        while stack:
            child = stack.pop()
            if isinstance(child, nodes.Text):
                prose.add(child.astext())
            elif isinstance(child, _INLINE_SKIPPED):
                if isinstance(child, (nodes.footnote_reference, nodes.citation_reference)):
                    prose.drop_space()  # "a footnote [1]_." reads "a footnote."
                continue
            elif isinstance(child, nodes.substitution_reference):
                prose.add(self._substitution(child))
            elif isinstance(child, nodes.image):
                prose.add(child.get("alt", ""))
            elif isinstance(child, nodes.Element):
                stack.extend(reversed(child.children))

    def _substitution(self, reference: nodes.substitution_reference) -> str:
        definition = self.document.substitution_defs.get(reference.get("refname", ""))
        return definition.astext() if definition is not None else reference.astext()


def _directive_content(source: str, *, line: int) -> list[tuple[int, str]]:
    """A directive's content lines from its source (the first line at `line`), options and list marks left out."""
    lines = source.split("\n")
    content: list[tuple[int, str]] = []
    options = True  # option lines come right after the directive's first line
    for offset, raw in enumerate(lines[1:], start=1):
        if options and _OPTION_LINE.match(raw):
            continue
        options = False
        content.append((line + offset, _CONTENT_MARKS.sub("", raw)))
    return content


def _is_adornment(line: str) -> bool:
    return len(line) >= 2 and not line[0].isalnum() and line == line[0] * len(line)


def _list_kind(node: nodes.Node) -> str:
    """ORDERED or UNORDERED for a paragraph of an enumerated or bullet list's item (the innermost), else ""."""
    parent = node.parent
    if not isinstance(parent, nodes.list_item):
        return ""
    return ORDERED if isinstance(parent.parent, nodes.enumerated_list) else UNORDERED
