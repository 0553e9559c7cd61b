"""The one entry point: check an upload's name, emptiness and size, then parse it in the format its extension names."""

from __future__ import annotations

from typing import Final, Protocol

from corpus_admin.parsing.decoding import decode_text
from corpus_admin.parsing.delimited import csv_events
from corpus_admin.parsing.document import Block, Event, ParsedDocument, Section, build_sections, split_lines
from corpus_admin.parsing.html import html_events
from corpus_admin.parsing.instructions import flag_instructions
from corpus_admin.parsing.markdown import markdown_events
from corpus_admin.parsing.pdf import parse_pdf
from corpus_admin.parsing.rejection import Reject, RejectedFile
from corpus_admin.parsing.rst import reads_as_rst, rst_events
from corpus_admin.parsing.sheets import xlsx_events
from corpus_admin.parsing.slides import pptx_events
from corpus_admin.parsing.text import text_events
from corpus_admin.parsing.word import docx_events

SUPPORTED: Final[dict[str, str]] = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".rst": "text/x-rst",
    ".html": "text/html",
    ".htm": "text/html",
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".csv": "text/csv",
}

_MB: Final = 1024 * 1024


class _BlockFormat(Protocol):
    def __call__(self, *, content: bytes, name: str) -> tuple[str | None, list[Event]]: ...


# The formats read from their bytes into blocks: office packages, and CSV (which decodes its own text).
_BLOCK_FORMATS: Final[dict[str, _BlockFormat]] = {
    SUPPORTED[".docx"]: docx_events,
    SUPPORTED[".pptx"]: pptx_events,
    SUPPORTED[".xlsx"]: xlsx_events,
    SUPPORTED[".csv"]: csv_events,
}


class _TextFormat(Protocol):
    def __call__(self, *, text: str) -> tuple[str | None, list[Event]]: ...


# The formats parsed from decoded text (PDF and the block formats above are parsed from their bytes).
_TEXT_FORMATS: Final[dict[str, _TextFormat]] = {
    "text/markdown": markdown_events,
    "text/x-rst": rst_events,
    "text/html": html_events,
    "text/plain": text_events,
}


def parse_document(*, file_name: str, content: bytes, max_bytes: int) -> ParsedDocument:
    """Parse an upload into sections of display-text blocks, or raise RejectedFile."""
    name = base_name(file_name)
    try:
        return _parse(name=name, content=content, max_bytes=max_bytes)
    except Reject as reject:
        raise RejectedFile(name, str(reject)) from None


def base_name(file_name: str) -> str:
    """Keep only the final path component, whichever separator the client used."""
    return file_name.replace("\\", "/").rsplit("/", 1)[-1].strip() or "unnamed file"


def _parse(*, name: str, content: bytes, max_bytes: int) -> ParsedDocument:
    """Validate and dispatch on the claimed format."""
    extension = _extension(name)
    media_type = SUPPORTED.get(extension)
    if media_type is None:
        shown = f"'{extension}'" if extension else "(no extension)"
        raise Reject(f"unsupported file type {shown} (supported: {', '.join(sorted(SUPPORTED))})")
    if not content:
        raise Reject("the file is empty")
    if len(content) > max_bytes:
        raise Reject(_size_reason(size=len(content), limit=max_bytes))
    if media_type == "application/pdf":
        title, sections, line_count = parse_pdf(content=content)
    elif media_type in _BLOCK_FORMATS:
        title, sections, line_count = _parse_blocks(_BLOCK_FORMATS[media_type](content=content, name=name))
    else:
        text = decode_text(content=content, html=media_type == "text/html")
        if not text.strip():
            raise Reject("the file is empty")
        title, sections, line_count = _parse_text(media_type=media_type, text=text)
    if not sections:
        raise Reject("the file has no body text (only headings or markup)")
    # The one place text written as an instruction to an AI is flagged, whatever the format (§2.8).
    return ParsedDocument(file_name=name, media_type=media_type, title=title, sections=flag_instructions(sections),
                          line_count=line_count)


def _parse_text(*, media_type: str, text: str) -> tuple[str | None, tuple[Section, ...], int]:
    """Parse decoded text in the claimed format, its newlines made one convention so line numbers agree."""
    lines = split_lines(text)
    text = "\n".join(lines)
    # A .txt file in reST (Sphinx projects' docs, Django's among them) is read as reST; its media type stays.
    reader = rst_events if media_type == "text/plain" and reads_as_rst(text) else _TEXT_FORMATS[media_type]
    title, events = reader(text=text)
    return title, build_sections(events=events), len(lines)


def _parse_blocks(read: tuple[str | None, list[Event]]) -> tuple[str | None, tuple[Section, ...], int]:
    """Sections of a format read from its bytes into blocks; its line count is its last block's last line."""
    title, events = read
    last = max((event.line_end for event in events if isinstance(event, Block)), default=0)
    return title, build_sections(events=events), last


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
