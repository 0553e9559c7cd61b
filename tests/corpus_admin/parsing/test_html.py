"""HTML: headings and blocks at their source lines; scripts, styles, the head and the site's chrome dropped."""
import pytest

from corpus_admin.testing import blocks, outline, parse, texts

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


def html(source: str) -> list[str]:
    return texts(parse("page.html", source.encode()))


def test_html_heading_path_and_source_line_numbers() -> None:
    document = parse("billing.html", HTML_PAGE)
    assert outline(document) == [
        (("Billing",), [(10, "Refunds take five days.")]),
        (("Billing", "Cards"), [(13, "Visa & Mastercard"), (14, "No Amex"), (16, "Fee; 2%")]),
        (("Billing", "Other"), [(18, "line one\n  indented line"), (23, "After script")]),
    ]
    paragraph, *_, code, _ = blocks(document)
    assert (paragraph.line_end, paragraph.line_at(paragraph.text.index("five"))) == (11, 11)
    assert (code.code, code.line_end) == (True, 19)
    assert document.line_count == 25
    assert document.media_type == "text/html"


def test_an_admonitions_title_is_not_a_section_and_the_text_after_it_keeps_its_heading() -> None:
    page = b"""<html><body>
<h2>20.8.2. When to Log</h2>
<div class="note"><h3 class="title">Note</h3><p>Durations are logged in milliseconds.</p></div>
<p>Setting it to -1 disables logging statement durations.</p>
<h3>Subsection</h3>
<p>Deeper.</p>
</body></html>"""
    assert [(path, [text for _, text in lines]) for path, lines in outline(parse("log.html", page))] == [
        (("20.8.2. When to Log",), ["Durations are logged in milliseconds.",
                                    "Setting it to -1 disables logging statement durations."]),
        (("20.8.2. When to Log", "Subsection"), ["Deeper."]),
    ]


def test_a_first_heading_naming_the_page_is_the_parent_of_its_later_same_level_headings() -> None:
    # DocBook's reference pages: the command's h2 stands beside its sections' h2s, not above them.
    page = b"""<html><head><title>pg_isready</title></head><body>
<div class="refentry"><div class="refnamediv"><h2><span class="refentrytitle">pg_isready</span></h2>
<p>pg_isready \xe2\x80\x94 check the connection status of a server</p></div>
<div class="refsect1"><h2>Options</h2><p>The default is 3 seconds.</p>
<div class="refsect2"><h3>Connection</h3><p>Deeper.</p></div></div>
<div class="refsect1"><h2>Notes</h2><p>Noted.</p></div></div>
</body></html>"""
    assert [path for path, _ in outline(parse("app-pg-isready.html", page))] == [
        ("pg_isready",), ("pg_isready", "Options"), ("pg_isready", "Options", "Connection"), ("pg_isready", "Notes"),
    ]


def test_a_first_heading_not_naming_the_page_leaves_later_same_level_headings_beside_it() -> None:
    page = b"""<html><head><title>Guide</title></head><body>
<h2>Install</h2><p>Run it.</p><h2>Upgrade</h2><p>Run it again.</p></body></html>"""
    assert [path for path, _ in outline(parse("guide.html", page))] == [("Install",), ("Upgrade",)]


def test_html_drops_script_style_noscript_and_head() -> None:
    text = "\n".join(texts(parse("b.htm", HTML_PAGE)))
    for dropped in ("secret", "color", "track", "Enable JavaScript", "Page Title"):
        assert dropped not in text


def test_the_sites_navigation_headers_footers_and_doc_chrome_are_dropped() -> None:
    page = """<html><body>
<div class="navheader"><table width="100%"><tr><th colspan="3">Chapter 8. Data Types</th></tr>
<tr><td><a href="prev.html">Prev</a></td><td>Up</td><td><a href="next.html">Next</a></td></tr></table></div>
<header class="site"><a href="/">Home</a> Search the docs</header>
<nav><ul><li>Install</li><li>Tutorial</li></ul></nav>
<div role="navigation">Breadcrumb trail</div>
<aside>Related links</aside>
<div class="sphinxsidebar">Sidebar</div>
<main><article><header><h1>Numeric Types</h1></header>
<p>Integers store whole numbers.<button>Copy</button></p>
<footer>Article notes stay.</footer></article></main>
<div hidden>Hidden text</div>
<footer>Copyright 2024 Example Ltd.</footer>
<div class="navfooter"><table><tr><td>Prev</td><td>Home</td></tr></table></div>
</body></html>"""
    document = parse("numeric.html", page.encode())
    assert outline(document) == [(("Numeric Types",), [(10, "Integers store whole numbers."),
                                                        (11, "Article notes stay.")])]


def test_publican_and_sphinx_page_chrome_is_dropped() -> None:
    page = """<html><body><div id="banner"><a href="/get/"><span class="text">Download the ebook</span></a></div>
<ul class="docnav top"><li class="previous"><a href="a.html"><strong>Prev</strong></a></li>
<li class="home">The Handbook</li><li class="next"><a href="c.html"><strong>Next</strong></a></li></ul>
<div class="section"><h2>9.9. Quotas</h2><div class="para">The quota system limits disk space.</div></div>
<ul class="docnav"><li class="previous"><a href="a.html"><strong>Prev</strong>9.8. Scheduling</a></li>
<li class="up"><a href="#"><strong>Up</strong></a></li>
<li class="next"><a href="c.html"><strong>Next</strong>9.10. Backup</a></li></ul>
<div class="footer">&copy; Copyright 2001-2026. Created using Sphinx 5.3.0.</div>
<main><div class="footer">A footer inside the page's main stays.</div></main>
</body></html>"""
    assert [(path, [text for _, text in lines]) for path, lines in outline(parse("quotas.html", page.encode()))] == [
        (("9.9. Quotas",), ["The quota system limits disk space.", "A footer inside the page's main stays."]),
    ]


def test_sphinx_permalink_anchors_are_not_text() -> None:
    document = parse("json.html", '<h2>Basic Usage<a class="headerlink" href="#basic" title="Link">¶</a></h2>'
                                  '<dl><dt>json.dumps(obj)<a class="headerlink" href="#json.dumps">¶</a></dt>'
                                  "<dd><p>Serialize obj.</p></dd></dl>".encode())
    assert "¶" not in " ".join(texts(document))
    assert outline(document)[0][0] == ("Basic Usage",)


@pytest.mark.parametrize(
    ("table", "rows"),
    [
        (
            "<table><thead><tr><th>Shipping method</th><th>Delivery time</th></tr></thead><tbody>"
            "<tr><td>Express domestic</td><td><p>2 business days</p></td></tr></tbody></table>",
            ["Shipping method: Express domestic; Delivery time: 2 business days"],
        ),
        (
            "<table><tr><th>Plan</th><th>Price</th><th>Seats</th></tr>"
            "<tr><td>Standard</td><td>$19 per <b>month</b></td><td>5</td></tr></table>",
            ["Plan: Standard; Price: $19 per month; Seats: 5"],
        ),
        (
            "<table><caption>Limits</caption><tr><td>Files</td><td>500</td></tr></table>",
            ["Limits", "Files; 500"],
        ),
        (
            "<table><tr><td><h2>Layout</h2><p>A cell used for layout.</p></td><td>Second column.</td></tr></table>",
            ["A cell used for layout.", "Second column."],
        ),
    ],
)
def test_table_rows_become_sentences_naming_their_headers(table: str, rows: list[str]) -> None:
    assert html(table) == rows


def test_definition_lists_keep_their_terms() -> None:
    assert html("<dl><dt>Default</dt><dd>1209600 (2 weeks, in seconds)</dd><dt>Alone</dt></dl><p>Next.</p>") == [
        "Default: 1209600 (2 weeks, in seconds)", "Alone", "Next.",
    ]


def test_a_block_quote_is_whole_sentences() -> None:
    assert html("<blockquote><p>Quoted\n  paragraph over\n  lines.</p></blockquote>") == [
        "Quoted paragraph over lines."]


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
    assert outline(parse("x.html", source))[0][1] == [(1, "alpha beta"), (2, "gamma delta"), (3, "epsilon"),
                                                       (4, "zeta"), (4, "eta"), (4, "theta")]


def test_html_line_numbers_resync_at_tags_that_span_lines() -> None:
    source = b'<p\n  class="lead"\n  id="intro">first</p>\n<p>second</p>\n<!-- a\ncomment -->tail'
    # Text after a tag that spans lines is on the line where the tag closes; a comment's lines are counted.
    assert outline(parse("x.html", source)) == [((), [(3, "first"), (4, "second"), (6, "tail")])]


def test_html_inline_markup_does_not_split_words() -> None:
    assert outline(parse("x.html", b"<p>un<b>break</b>able <i>x</i>y</p>")) == [((), [(1, "unbreakable xy")])]


def test_html_uses_declared_charset_when_not_utf8() -> None:
    source = '<meta charset="windows-1252"><p>Price: 5 € — café</p>'.encode("cp1252")
    assert outline(parse("x.html", source))[0][1] == [(1, "Price: 5 € — café")]


def test_xhtml_with_an_xml_declaration_parses() -> None:
    source = b'<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Text</p>'
    assert html(source.decode()) == ["Text"]


def test_html_heading_text_is_whitespace_normalised() -> None:
    source = b"<h1>\n  Refund\n   <em>policy</em><br>2024\n</h1>\n<p>body</p>"
    document = parse("x.html", source)
    assert outline(document) == [(("Refund policy 2024",), [(5, "body")])]
    assert document.title == "Refund policy 2024"


def test_html_heading_with_only_markup_does_not_change_the_path() -> None:
    source = b"<h1>Top</h1>\n<h2><img src=x></h2>\n<p>body</p>"
    assert outline(parse("x.html", source)) == [(("Top",), [(3, "body")])]


@pytest.mark.parametrize("source", ["<div>" * 5000 + "deep" + "</div>" * 5000, "<p>" + "<b>" * 3000 + "x",
                                    "<table><tr><td>" * 300 + "cell", "<<<>>>&&&;;<p/>text</p></p>"])
def test_malformed_or_deep_html_still_parses(source: str) -> None:
    assert any(texts(parse("odd.html", source.encode())))
