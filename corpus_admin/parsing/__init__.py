"""Turn uploaded files into sections of numbered text lines, or reject them with a reason."""

from __future__ import annotations

import codecs
import io
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4.dammit import EncodingDetector
from bs4.element import NavigableString, PageElement, PreformattedString, Tag
from charset_normalizer import from_bytes
from pypdf import PdfReader

# Uploads are never file names or URLs, and XHTML is fine to read as HTML, so these
# bs4 hints would only be noise in the logs.
warnings.filterwarnings("ignore", category=MarkupResemblesLocatorWarning, module="bs4")
warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning, module="bs4")

SUPPORTED: Final[dict[str, str]] = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".rst": "text/x-rst",
    ".html": "text/html",
    ".htm": "text/html",
    ".pdf": "application/pdf",
}

_MB: Final = 1024 * 1024
_BINARY_MAGIC: Final = (b"%PDF", b"PK\x03\x04", b"\x7fELF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff",
                        b"\x1f\x8b", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
_UNICODE_BOMS: Final = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                        (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_NEWLINE: Final = re.compile(r"\r\n|\r|\n")


class RejectedFile(Exception):
    """A file that cannot be ingested, with a message naming the file and the reason."""

    def __init__(self, file_name: str, reason: str) -> None:
        # Both go to Exception.args so the exception survives pickling between processes.
        super().__init__(file_name, reason)
        self.file_name = file_name
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.file_name}: {self.reason}"


@dataclass(frozen=True)
class Line:
    """One non-blank line of text and its 1-based line number in the original file."""

    number: int
    text: str


@dataclass(frozen=True)
class Section:
    """The body lines found under one heading path."""

    heading_path: tuple[str, ...]
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class ParsedDocument:
    """A parsed file: its name, media type, title and sections of numbered lines."""

    file_name: str
    media_type: str
    title: str | None
    sections: tuple[Section, ...]
    line_count: int


@dataclass(frozen=True)
class _Heading:
    """Marks the start of a new section at a heading path."""

    path: tuple[str, ...]


_Event = _Heading | Line


class _Reject(Exception):
    """A rejection reason raised before the file name is attached."""


def parse_document(*, file_name: str, content: bytes, max_bytes: int) -> ParsedDocument:
    """Parse an upload into sections of numbered lines, or raise RejectedFile."""
    name = base_name(file_name)
    try:
        return _parse(name=name, content=content, max_bytes=max_bytes)
    except _Reject as reject:
        raise RejectedFile(name, str(reject)) from None


def _parse(*, name: str, content: bytes, max_bytes: int) -> ParsedDocument:
    """Validate and dispatch on the claimed format."""
    extension = _extension(name)
    media_type = SUPPORTED.get(extension)
    if media_type is None:
        shown = f"'{extension}'" if extension else "(no extension)"
        raise _Reject(f"unsupported file type {shown} (supported: {', '.join(sorted(SUPPORTED))})")
    if not content:
        raise _Reject("the file is empty")
    if len(content) > max_bytes:
        raise _Reject(_size_reason(size=len(content), limit=max_bytes))
    if media_type == "application/pdf":
        title, sections, line_count = _parse_pdf(content=content)
    else:
        text = _decode(content=content, html=media_type == "text/html")
        if not text.strip():
            raise _Reject("the file is empty")
        title, sections, line_count = _parse_text(media_type=media_type, text=text)
    if not sections:
        raise _Reject("the file has no body text (only headings or markup)")
    return ParsedDocument(file_name=name, media_type=media_type, title=title, sections=sections,
                          line_count=line_count)


def _parse_text(*, media_type: str, text: str) -> tuple[str | None, tuple[Section, ...], int]:
    """Split decoded text into lines and parse them in the claimed format."""
    lines = _split_lines(text)
    if media_type == "text/markdown":
        title, events = _markdown_events(lines=lines)
    elif media_type == "text/x-rst":
        title, events = _rst_events(lines=lines)
    elif media_type == "text/html":
        title, events = _html_events(text="\n".join(lines))
    else:
        title, events = None, [Line(number, line) for number, line in enumerate(lines, start=1)]
    return title, _sections(events=events), len(lines)


# --- names, sizes and bytes -------------------------------------------------------------


def base_name(file_name: str) -> str:
    """Keep only the final path component, whichever separator the client used."""
    return file_name.replace("\\", "/").rsplit("/", 1)[-1].strip() or "unnamed file"


def _extension(name: str) -> str:
    """Return the lower-cased extension including its dot, or '' when there is none."""
    _, dot, suffix = name.rpartition(".")
    return f".{suffix.lower()}" if dot and suffix else ""


def _size_reason(*, size: int, limit: int) -> str:
    """Describe an oversized file in MB, falling back to bytes when MB rounding hides the gap."""
    size_mb, limit_mb = _format_mb(size), _format_mb(limit)
    if size_mb == limit_mb:
        return f"the file is {size:,} bytes, over the {limit:,} byte limit"
    return f"the file is {size_mb} MB, over the {limit_mb} MB limit"


def _format_mb(size: int) -> str:
    """Format a byte count in MB with one decimal, dropping a trailing '.0'."""
    return f"{size / _MB:.1f}".removesuffix(".0")


def _decode(*, content: bytes, html: bool) -> str:
    """Decode text bytes, rejecting binary content and undetectable encodings."""
    text = _decode_unicode_bom(content=content)
    if text is None:
        if b"\x00" in content or _has_binary_magic(content):
            raise _Reject("binary content, not text")
        text = _strict_decode(content=content, encoding="utf-8-sig")
    if text is None:
        text = _detect_and_decode(content=content, html=html)
    if "\x00" in text:
        raise _Reject("binary content, not text")
    return text


def _decode_unicode_bom(*, content: bytes) -> str | None:
    """Decode UTF-16/32 text marked by a byte order mark; None when there is no such mark."""
    for bom, encoding in _UNICODE_BOMS:
        if content.startswith(bom):
            text = _strict_decode(content=content, encoding=encoding)
            if text is None:
                raise _Reject("binary content, not text")
            return text
    return None


def _detect_and_decode(*, content: bytes, html: bool) -> str:
    """Decode non-UTF-8 text by its HTML declaration or by charset detection."""
    if html:
        declared = EncodingDetector.find_declared_encoding(content, is_html=True)
        if declared and (text := _strict_decode(content=content, encoding=declared)) is not None:
            return text
    # best() is None when every candidate reads as too chaotic (mean mess ratio over 0.2).
    match = from_bytes(content).best()
    # It can also fall back to a codec that does not decode the whole payload, so re-check.
    text = _strict_decode(content=content, encoding=match.encoding) if match else None
    if text is None:
        raise _Reject("text is not valid UTF-8 and its encoding could not be detected")
    return text


def _strict_decode(*, content: bytes, encoding: str) -> str | None:
    """Decode with the named codec, or return None if it is unknown or does not fit."""
    try:
        return content.decode(encoding)
    except (LookupError, UnicodeDecodeError):
        return None


def _has_binary_magic(content: bytes) -> bool:
    """Tell whether the bytes start like a well-known binary format."""
    if content.startswith(_BINARY_MAGIC):
        return True
    # "MZ" alone could start a sentence; executables follow it with control bytes.
    return content.startswith(b"MZ") and any(byte < 0x09 for byte in content[2:64])


def _split_lines(text: str) -> list[str]:
    """Split on any newline convention, without a phantom line after a final newline."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --- sections ------------------------------------------------------------------------------


def _sections(*, events: Iterable[_Event]) -> tuple[Section, ...]:
    """Group lines into sections, starting a new one at every heading and dropping blanks."""
    sections: list[Section] = []
    path: tuple[str, ...] = ()
    lines: list[Line] = []
    for event in events:
        if isinstance(event, _Heading):
            if lines:
                sections.append(Section(heading_path=path, lines=tuple(lines)))
            path, lines = event.path, []
        elif text := event.text.rstrip():
            lines.append(Line(number=event.number, text=text))
    if lines:
        sections.append(Section(heading_path=path, lines=tuple(lines)))
    return tuple(sections)


def _push_heading(stack: tuple[tuple[int, str], ...], *, level: int, text: str) -> tuple[tuple[int, str], ...]:
    """Close headings at the same or deeper level, then open this one."""
    kept = tuple(entry for entry in stack if entry[0] < level)
    return (*kept, (level, text))


def _path(stack: tuple[tuple[int, str], ...]) -> tuple[str, ...]:
    """Return the heading texts of a heading stack."""
    return tuple(text for _, text in stack)


# --- Markdown ------------------------------------------------------------------------------

_ATX: Final = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE_OPEN: Final = re.compile(r"^ {0,3}(`{3,}(?!.*`)|~{3,})")
_SETEXT: Final = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# Lines that cannot be setext heading text: indented code, list items, quotes, thematic breaks.
_NOT_PARAGRAPH: Final = re.compile(
    r"^(?: {4}|\t| {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>| {0,3}(?:[-*_][ \t]*){3,}$)"
)
_FRONT_MATTER_TITLE: Final = re.compile(r"^title:\s*(.+?)\s*$")


def _markdown_events(*, lines: list[str]) -> tuple[str | None, list[_Event]]:
    """Find ATX and setext headings outside fenced code; everything else is body text."""
    events: list[_Event] = []
    stack: tuple[tuple[int, str], ...] = ()
    title: str | None = None
    start, front_title = _front_matter(lines=lines)
    fence: tuple[str, int] | None = None
    paragraph_line: str | None = None  # the previous line, if it could be a setext heading text
    for index in range(start, len(lines)):
        raw, number = lines[index], index + 1
        if fence is not None:
            events.append(Line(number, raw))
            if _closes_fence(raw, fence=fence):
                fence = None
            paragraph_line = None
            continue
        level, text, setext = _markdown_heading(raw, previous=paragraph_line)
        if level and text:
            if setext:
                events.pop()  # the previous line was the heading text, not body
            stack = _push_heading(stack, level=level, text=text)
            events.append(_Heading(_path(stack)))
            title = text if title is None and level == 1 else title
            paragraph_line = None
            continue
        if level:  # an empty heading such as a lone "#": not body text
            paragraph_line = None
            continue
        if opening := _FENCE_OPEN.match(raw):
            marker = opening.group(1)
            fence = (marker[0], len(marker))
        events.append(Line(number, raw))
        paragraph_line = raw if fence is None and raw.strip() and not _NOT_PARAGRAPH.match(raw) else None
    return title if title is not None else front_title, events


def _markdown_heading(raw: str, *, previous: str | None) -> tuple[int, str, bool]:
    """Return (level, text, is_setext) for an ATX heading or setext underline, else (0, '', False)."""
    if atx := _ATX.match(raw):
        return len(atx.group(1)), (atx.group(2) or "").strip(), False
    if previous is not None and (setext := _SETEXT.match(raw)):
        return (1 if setext.group(1)[0] == "=" else 2), previous.strip(), True
    return 0, "", False


def _closes_fence(raw: str, *, fence: tuple[str, int]) -> bool:
    """Tell whether a line closes the open fence (same character, at least as long)."""
    char, length = fence
    stripped = raw.strip()
    return (len(raw) - len(raw.lstrip(" ")) <= 3 and len(stripped) >= length
            and stripped == char * len(stripped))


def _front_matter(*, lines: list[str]) -> tuple[int, str | None]:
    """Return the index after YAML front matter (0 if none) and its title, if any."""
    if not lines or lines[0].rstrip() != "---":
        return 0, None
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            titles = (m.group(1).strip("'\"") for line in lines[1:index] if (m := _FRONT_MATTER_TITLE.match(line)))
            return index + 1, next(titles, None) or None
    return 0, None


# --- reStructuredText -----------------------------------------------------------------------

_ADORNMENT_CHARS: Final = frozenset("=-~^\"'`#*+:._")
_EXPLICIT_MARKUP: Final = re.compile(r"^\s*\.\.(?:\s|$)")
_ADMONITION_NAMES: Final = (
    "admonition|attention|caution|danger|error|hint|important|note|rubric|sidebar|tip|topic|warning"
)
_ADMONITION: Final = re.compile(rf"^\s*\.\.\s+(?:{_ADMONITION_NAMES})::\s*(\S.*)$")


def _rst_events(*, lines: list[str]) -> tuple[str | None, list[_Event]]:
    """Find section titles by adornment, levelled by first appearance of each style."""
    events: list[_Event] = []
    styles: list[tuple[str, bool]] = []
    path: tuple[str, ...] = ()
    title: str | None = None
    index, can_start_title = 0, True
    while index < len(lines):
        found = _rst_title(lines=lines, index=index) if can_start_title else None
        if found is not None:
            text, style, consumed = found
            if style not in styles:
                styles.append(style)
            level = styles.index(style) + 1
            path = (*path[: level - 1], text)
            events.append(_Heading(path))
            title = text if title is None else title
            index += consumed
            continue
        raw = lines[index]
        if admonition := _ADMONITION.match(raw):
            events.append(Line(index + 1, admonition.group(1)))
        elif not _EXPLICIT_MARKUP.match(raw):
            events.append(Line(index + 1, raw))
        can_start_title = not raw.strip()
        index += 1
    return title, events


def _rst_title(*, lines: list[str], index: int) -> tuple[str, tuple[str, bool], int] | None:
    """Return (title, style, lines consumed) if a section title starts at index."""
    first = lines[index]
    over = _adornment(first)
    if over is not None and index + 2 < len(lines):
        text, under = lines[index + 1].strip(), lines[index + 2].rstrip()
        if (text and _adornment(lines[index + 1]) is None and under == first.rstrip()
                and len(under) >= len(text)):
            return text, (over, True), 3
    if over is None and first.strip() and not first[0].isspace() and index + 1 < len(lines):
        under_char = _adornment(lines[index + 1])
        if under_char is not None and len(lines[index + 1].rstrip()) >= len(first.rstrip()):
            return first.strip(), (under_char, False), 2
    return None


def _adornment(line: str) -> str | None:
    """Return the adornment character if the line is one repeated punctuation character."""
    stripped = line.rstrip()
    if len(stripped) >= 2 and stripped[0] in _ADORNMENT_CHARS and stripped == stripped[0] * len(stripped):
        return stripped[0]
    return None


# --- HTML ----------------------------------------------------------------------------------

_SKIPPED_TAGS: Final = frozenset({"script", "style", "noscript", "template", "head", "title", "svg", "iframe"})
_HEADING_TAGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCK_TAGS: Final = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header",
    "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "option", "p", "pre",
    "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})


def _html_events(*, text: str) -> tuple[str | None, list[_Event]]:
    """Extract headings and block text from HTML with source line numbers."""
    # bs4's lxml builder leaves Tag.sourceline empty; html.parser records it.
    soup = BeautifulSoup(text, "html.parser")
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
        self.events: list[_Event] = []
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
                self._stack = _push_heading(self._stack, level=level, text=text)
                self.events.append(_Heading(_path(self._stack)))
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


# --- PDF -----------------------------------------------------------------------------------


def _parse_pdf(*, content: bytes) -> tuple[str | None, tuple[Section, ...], int]:
    """Extract the text layer page by page; each page is a section."""
    if not content.startswith(b"%PDF-"):
        raise _Reject("not a PDF (content does not start with %PDF-)")
    try:
        reader = PdfReader(io.BytesIO(content))
        encrypted = reader.is_encrypted
    except Exception as error:  # pypdf raises many exception types on malformed input
        raise _Reject(f"unreadable PDF: {_short(error)}") from None
    if encrypted:
        raise _Reject("the PDF is encrypted; upload an unencrypted copy")
    try:
        page_count = len(reader.pages)
    except Exception as error:  # pypdf raises many exception types on malformed input
        raise _Reject(f"unreadable PDF: {_short(error)}") from None
    events: list[_Event] = []
    number = 0
    for page_number in range(1, page_count + 1):
        try:
            # PostgreSQL text cannot hold NUL, which some PDF text layers contain.
            text = reader.pages[page_number - 1].extract_text().replace("\x00", "")
        except Exception as error:  # pypdf raises many exception types on malformed input
            raise _Reject(f"unreadable PDF: page {page_number}: {_short(error)}") from None
        events.append(_Heading((f"Page {page_number}",)))
        for line in _split_lines(text):
            number += 1
            events.append(Line(number, line))
    sections = _sections(events=events)
    if not sections:
        raise _Reject("the PDF has no text layer")
    return _pdf_title(reader), sections, number


def _pdf_title(reader: PdfReader) -> str | None:
    """Return the metadata /Title, or None if absent, blank or unreadable."""
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:  # a broken info dictionary should not cost us the text
        return None
    text = " ".join(str(title).split()) if title else ""
    return text or None


def _short(error: Exception) -> str:
    """Summarise an exception in one short line."""
    message = " ".join(str(error).split()) or type(error).__name__
    return message if len(message) <= 120 else f"{message[:117]}..."
