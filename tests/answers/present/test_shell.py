"""The fragments every answer sends, written in Python: a document's or a caller's text arrives escaped, once."""
import datetime as dt

from answers.pipeline.events import ChunkRef
from answers.present.shell import format_fragment, notice_html, sources_html, turn_html

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
