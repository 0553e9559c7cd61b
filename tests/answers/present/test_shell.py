"""The fragments every answer sends, written in Python: a document's or a caller's text arrives escaped, once."""
import datetime as dt

from answers.pipeline.events import ChunkRef
from answers.pipeline.types import SupportSpan
from answers.present.lists import Placement
from answers.present.shell import format_fragment, notice_html, sentence_html, sources_html, turn_html

HOSTILE = """<script>alert('x')</script> & <img src=x onerror="alert(1)">"""
ESCAPED = "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;img src=x onerror=&quot;alert(1)&quot;&gt;"


def test_every_argument_is_escaped_quotes_included():
    assert format_fragment('<a title="{}">{}</a>', HOSTILE, HOSTILE) == f'<a title="{ESCAPED}">{ESCAPED}</a>'


def test_a_fragment_inside_another_is_not_escaped_twice():
    inner = format_fragment("<b>{}</b>", "&")
    assert format_fragment("<p>{}</p>", inner) == "<p><b>&amp;</b></p>"


def test_a_question_shows_escaped_in_its_turn():
    fragment = turn_html("t1", HOSTILE)
    assert f'<h2 class="question" id="q-t1" hx-disable>{ESCAPED}</h2>' in fragment and "<script" not in fragment


def test_a_document_title_shows_escaped_in_the_sources_with_its_passages():
    block = ChunkRef(2, "doc-c01", HOSTILE, dt.date(2026, 1, 2))
    fragment = sources_html("t1", [(HOSTILE, block.updated_on, [(block, "/chunks/doc-c01/?a=1&b=2")])])
    assert f'<span class="source-title">{ESCAPED}</span>' in fragment and "<script" not in fragment
    assert '<time datetime="2026-01-02">2026-01-02</time>' in fragment
    assert '<li id="cite-t1-2" value="2" class="passage"><a href="/chunks/doc-c01/?a=1&amp;b=2">Passage [2]</a></li>' \
        in fragment


def test_a_notice_shows_its_message_escaped():
    assert ESCAPED in notice_html(HOSTILE) and "<img" not in notice_html(HOSTILE)


def test_a_sentence_shows_escaped_with_its_citation_words_and_source():
    citation = ChunkRef(1, "doc-c01", HOSTILE, dt.date(2026, 1, 2), SupportSpan(0, 5, (1,), HOSTILE))
    fragment = sentence_html("t1", HOSTILE, [(citation, "/chunks/doc-c01/", "/chunks/doc-c01/?s=1#s-1")],
                             position=2, placement=None)
    assert fragment.startswith('<div id="answer-t1" hx-swap-oob="beforeend" data-event="sentence">\n'
                               f'<p class="sentence" data-event="sentence">{ESCAPED} <span class="cite-wrap">')
    assert '<a class="cite" href="/chunks/doc-c01/?s=1#s-1" data-n="1" aria-describedby="quote-t1-2-1">[1]</a>' \
        in fragment
    assert f'<q class="cite-words">{ESCAPED}</q> <span class="cite-source">{ESCAPED}, 2026-01-02</span>' in fragment
    assert ('<li id="cite-t1-1" value="1" class="passage cited" hx-swap-oob="outerHTML" data-event="sentence">'
            f'<a href="/chunks/doc-c01/">Passage [1]</a> <q class="passage-quote">{ESCAPED}</q></li>\n') in fragment
    assert "<script" not in fragment


def test_a_sentence_opening_a_list_opens_it_and_a_later_one_joins_its_item():
    opening = sentence_html("t1", "First.", [], position=1, placement=Placement("ol", 1, 1, True, True))
    joining = sentence_html("t1", "More.", [], position=2, placement=Placement("ol", 1, 1, False, False))
    assert '<ol class="answer-list" id="list-t1-1"><li class="answer-item" id="item-t1-1">' \
           '<p class="sentence" data-event="sentence">First.</p>\n</li></ol>' in opening
    assert joining.startswith('<div hx-swap-oob="beforeend:#item-t1-1" data-event="sentence">\n'
                              '<p class="sentence" data-event="sentence">More.</p>\n')
