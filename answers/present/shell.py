"""The fixed-shape fragments every answer sends (its turn, its sources, its end, the notice), written in Python.

They were templates; rendered per event through the template engine they cost a worker more than the answer's
retrieval under load. `format_fragment` escapes every argument as `{{ }}` and format_html do (html.escape, quotes
included, unless it is already safe HTML), so a document's title, a question or a message reaches the page escaped
exactly as before; the markup is the templates' byte for byte. It is format_html without Django's lazy-string checks
on each argument, which made format_html as slow as the template for a list of passages.
"""
import datetime as dt
import html
from collections.abc import Iterable, Sequence

from django.utils.safestring import SafeString, mark_safe

from answers.pipeline.events import ChunkRef

_TURN = (
    '<div id="conversation" hx-swap-oob="beforeend" data-event="turn">\n'
    '<section class="turn" id="turn-{0}" aria-labelledby="q-{0}">\n'
    '  <h2 class="question" id="q-{0}" hx-disable>{1}</h2>\n'
    '  <div class="answer" id="answer-{0}" hx-disable></div>\n'
    '  <div id="refusal-{0}" hx-disable></div>\n'
    '  <div id="error-{0}" hx-disable></div>\n'
    '  <ol class="sources" id="sources-{0}" hx-disable></ol>\n'
    '  <p class="status status-pending" id="status-{0}">Searching the documents…</p>\n'
    "</section>\n"
    "</div>\n"
)
_SOURCES = (
    '<ol class="sources" id="sources-{}" hx-swap-oob="outerHTML" data-event="meta" hx-disable aria-label="Sources">\n'
    "{}</ol>\n"
)
_DOCUMENT = (
    '  <li class="source-document"><span class="source-title">{}</span>{}\n    <ol class="passages">{}</ol></li>\n'
)
_PASSAGE = '<li id="cite-{0}-{1}" value="{1}" class="passage"><a href="{2}">Passage [{1}]</a></li>'
_DATE = ' · <time datetime="{0}">{0}</time>'
_DONE = (
    '<p class="status status-{}" id="status-{}" hx-swap-oob="outerHTML" data-event="done" data-generator="{}">{}</p>\n'
)
_NOTICE = (
    '<div id="notice" class="notice" hx-swap-oob="outerHTML" data-event="error" role="alert" hx-disable>{}</div>\n'
)


def format_fragment(template: str, *args: object) -> SafeString:
    """`template.format(*args)` with each argument escaped for HTML (quotes too) unless it is already safe HTML."""
    return mark_safe(template.format(*map(_escaped, args)))  # noqa: S308  (every argument is escaped)


def _escaped(value: object) -> str:
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def turn_html(turn_id: str, question: str) -> SafeString:
    """The empty turn a question starts, appended to the conversation."""
    return format_fragment(_TURN, turn_id, question)


def sources_html(turn_id: str, documents: Iterable[tuple[str, dt.date | None, Sequence[tuple[ChunkRef, str]]]]) -> str:
    """The sources list: each document (title, date, its passages with their pages' URLs) with its passages."""
    return format_fragment(_SOURCES, turn_id, mark_safe("".join(  # noqa: S308  (fragments escaped as they are made)
        format_fragment(
            _DOCUMENT, title, format_fragment(_DATE, updated_on.isoformat()) if updated_on else "",
            mark_safe("".join(format_fragment(_PASSAGE, turn_id, block.n, url) for block, url in blocks)),  # noqa: S308
        )
        for title, updated_on, blocks in documents
    )))


def done_html(turn_id: str, status: str, generator: str, text: str) -> SafeString:
    """The end marker: how the answer ended, in words."""
    return format_fragment(_DONE, status, turn_id, generator, text)


def notice_html(message: str) -> SafeString:
    """The notice, replacing the last one (an empty one clears it)."""
    return format_fragment(_NOTICE, message)
