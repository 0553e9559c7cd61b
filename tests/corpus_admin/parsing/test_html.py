"""HTML: headings and block text at their source lines; scripts, styles and the head dropped."""
import pytest

from corpus_admin.testing import outline, parse

HTML_PAGE = b"""<!doctype html>
<html>
<head>
  <title>Page Title</title>
  <style>p { color: red; }</style>
  <script>var secret = 1;</script>
</head>
<body>
<h1>Billing</h1>
<p>Refunds take
five days.</p>
<h2>Cards</h2>
<ul><li>Visa &amp; Mastercard</li>
<li>No Amex</li></ul>
<noscript>Enable JavaScript</noscript>
<table><tr><td>Fee</td><td>2%</td></tr></table>
<h2>Other</h2>
<pre>line one
  indented line</pre>
<script>
  track();
</script>
<p>After script</p>
</body>
</html>
"""


def test_html_heading_path_and_source_line_numbers() -> None:
    document = parse("billing.html", HTML_PAGE)
    assert outline(document) == [
        (("Billing",), [(10, "Refunds take"), (11, "five days.")]),
        (("Billing", "Cards"), [(13, "Visa & Mastercard"), (14, "No Amex"), (16, "Fee"), (16, "2%")]),
        (("Billing", "Other"), [(18, "line one"), (19, "  indented line"), (23, "After script")]),
    ]
    assert document.line_count == 25
    assert document.media_type == "text/html"


def test_html_drops_script_style_noscript_and_head() -> None:
    text = "\n".join(line.text for section in parse("b.htm", HTML_PAGE).sections for line in section.lines)
    for dropped in ("secret", "color", "track", "Enable JavaScript", "Page Title"):
        assert dropped not in text


@pytest.mark.parametrize(
    ("source", "title"),
    [
        (HTML_PAGE, "Billing"),
        (b"<html><head><title> Fallback \n Title </title></head><body><p>x</p></body></html>", "Fallback Title"),
        (b"<svg><title>icon</title></svg><p>x</p>", None),
        (b"<p>x</p>", None),
    ],
)
def test_html_title_is_first_h1_else_title_tag(source: bytes, title: str | None) -> None:
    assert parse("page.html", source).title == title


def test_html_entities_become_literal_text() -> None:
    source = b"<p>Use &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;&nbsp;here</p>"
    assert outline(parse("x.html", source)) == [((), [(1, 'Use <script>alert(1)</script> & "quotes" here')])]


def test_html_nested_blocks_keep_every_word_exactly_once() -> None:
    source = (
        b"<div>alpha <b>beta</b>\n  <p>gamma <span>delta</span></p>\n"
        b"  epsilon\n  <div><p>zeta</p>eta</div>theta\n</div>"
    )
    lines = outline(parse("x.html", source))[0][1]
    assert lines == [(1, "alpha beta"), (2, "gamma delta"), (3, "epsilon"), (4, "zeta"), (4, "eta"), (4, "theta")]


def test_html_line_numbers_resync_at_tags_that_span_lines() -> None:
    source = b'<p\n  class="lead"\n  id="intro">first</p>\n<p>second</p>\n<!-- a\ncomment -->tail'
    # Text is placed on its element's first line; the next tag's own line number corrects any drift.
    assert outline(parse("x.html", source)) == [((), [(1, "first"), (4, "second"), (6, "tail")])]


def test_html_inline_markup_does_not_split_words() -> None:
    assert outline(parse("x.html", b"<p>un<b>break</b>able <i>x</i>y</p>")) == [((), [(1, "unbreakable xy")])]


def test_html_uses_declared_charset_when_not_utf8() -> None:
    source = '<meta charset="windows-1252"><p>Price: 5 € — café</p>'.encode("cp1252")
    assert outline(parse("x.html", source))[0][1] == [(1, "Price: 5 € — café")]


def test_html_heading_text_is_whitespace_normalised() -> None:
    source = b"<h1>\n  Refund\n   <em>policy</em><br>2024\n</h1>\n<p>body</p>"
    document = parse("x.html", source)
    assert outline(document) == [(("Refund policy 2024",), [(5, "body")])]
    assert document.title == "Refund policy 2024"


def test_html_heading_with_only_markup_does_not_change_the_path() -> None:
    source = b"<h1>Top</h1>\n<h2><img src=x></h2>\n<p>body</p>"
    assert outline(parse("x.html", source)) == [(("Top",), [(3, "body")])]
