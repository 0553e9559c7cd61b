"""The fragments every answer sends (its turn, its sources, each verified sentence, its end, the notice), in Python.

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
from answers.present.lists import Placement

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


# The sentence: its paragraph (or list item), each citation's [n] with the words it stands on, and the passage in the
# sources list marked cited with those words. Was templates/answers/fragments/sentence.html and sentence_text.html.
_SENTENCE_TEXT = '<p class="sentence" data-event="sentence">{}{}</p>\n'
_CITE = (
    ' <span class="cite-wrap"><a class="cite" href="{0}" data-n="{1}" aria-describedby="quote-{2}-{3}-{1}">[{1}]</a>'
    '<span class="cite-quote" id="quote-{2}-{3}-{1}" role="tooltip">{4}<span class="cite-source">{5}{6}</span>'
    "</span></span>"
)
_CITE_WORDS = '<q class="cite-words">{}</q> '
_CITE_DATE = ", {}"
_OWN_PARAGRAPH = '<div id="answer-{}" hx-swap-oob="beforeend" data-event="sentence">\n{}\n</div>\n'
_OPENS_LIST = (
    '<div id="answer-{0}" hx-swap-oob="beforeend" data-event="sentence">\n'
    '<{1} class="answer-list" id="list-{0}-{2}"><li class="answer-item" id="item-{0}-{3}">{4}</li></{1}>\n</div>\n'
)
_OPENS_ITEM = (
    '<div hx-swap-oob="beforeend:#list-{0}-{1}" data-event="sentence">\n'
    '<li class="answer-item" id="item-{0}-{2}">{3}</li>\n</div>\n'
)
_IN_ITEM = '<div hx-swap-oob="beforeend:#item-{0}-{1}" data-event="sentence">\n{2}\n</div>\n'
_CITED = (
    '<li id="cite-{0}-{1}" value="{1}" class="passage cited" hx-swap-oob="outerHTML" data-event="sentence">'
    '<a href="{2}">Passage [{1}]</a>{3}</li>\n'
)
_CITED_WORDS = ' <q class="passage-quote">{}</q>'


def sentence_html(
    turn_id: str, text: str, citations: Sequence[tuple[ChunkRef, str, str]], *, position: int,
    placement: Placement | None,
) -> SafeString:
    """A verified sentence with its citations (each with its chunk page's and its span's URLs), in its paragraph or
    its place in a list, and each cited passage of the sources list marked with the words it stands on."""
    cites = mark_safe("".join(  # noqa: S308  (fragments escaped as they are made)
        format_fragment(
            _CITE, url, citation.n, turn_id, position,
            format_fragment(_CITE_WORDS, citation.span.quote) if citation.span else "", citation.source_title,
            format_fragment(_CITE_DATE, citation.updated_on.isoformat()) if citation.updated_on else "",
        )
        for citation, _page, url in citations
    ))
    shown = format_fragment(_SENTENCE_TEXT, text, cites)
    if not placement:
        head = format_fragment(_OWN_PARAGRAPH, turn_id, shown)
    elif placement.opens_list:
        head = format_fragment(_OPENS_LIST, turn_id, placement.tag, placement.list_at, placement.item_at, shown)
    elif placement.opens_item:
        head = format_fragment(_OPENS_ITEM, turn_id, placement.list_at, placement.item_at, shown)
    else:
        head = format_fragment(_IN_ITEM, turn_id, placement.item_at, shown)
    cited = "".join(
        format_fragment(_CITED, turn_id, citation.n, page,
                        format_fragment(_CITED_WORDS, citation.span.quote) if citation.span else "")
        for citation, page, _url in citations
    )
    return mark_safe(f"{head}{cited}\n")  # noqa: S308  (fragments escaped as they are made)
