import pickle
import random

import pytest

from corpus_admin.parsing import SUPPORTED, Line, ParsedDocument, RejectedFile, Section, parse_document
from corpus_admin.testing import pdf_bytes

MB = 1024 * 1024
LIMIT = 20 * MB

Outline = list[tuple[tuple[str, ...], list[tuple[int, str]]]]


def parse(file_name: str, content: bytes, *, max_bytes: int = LIMIT) -> ParsedDocument:
    return parse_document(file_name=file_name, content=content, max_bytes=max_bytes)


def outline(document: ParsedDocument) -> Outline:
    return [
        (section.heading_path, [(line.number, line.text) for line in section.lines]) for section in document.sections
    ]


def rejection(file_name: str, content: bytes, *, max_bytes: int = LIMIT) -> RejectedFile:
    with pytest.raises(RejectedFile) as caught:
        parse(file_name, content, max_bytes=max_bytes)
    return caught.value


# --- Markdown ------------------------------------------------------------------------------


def test_markdown_heading_path_follows_nesting() -> None:
    source = b"""# Billing

Intro to billing.

## Refunds

Refunds take five days.
Partial refunds too.

### Card refunds
Cards get refunds in three days.

## Invoices
Invoices are monthly.

# Support
Call us.
"""
    assert outline(parse("guide.md", source)) == [
        (("Billing",), [(3, "Intro to billing.")]),
        (("Billing", "Refunds"), [(7, "Refunds take five days."), (8, "Partial refunds too.")]),
        (("Billing", "Refunds", "Card refunds"), [(11, "Cards get refunds in three days.")]),
        (("Billing", "Invoices"), [(14, "Invoices are monthly.")]),
        (("Support",), [(17, "Call us.")]),
    ]


def test_markdown_text_before_first_heading_has_empty_path() -> None:
    document = parse("notes.md", b"Preamble line.\n\n# Title\nBody.\n")
    assert outline(document) == [((), [(1, "Preamble line.")]), (("Title",), [(4, "Body.")])]


@pytest.mark.parametrize(
    ("source", "title"),
    [
        (b"## Setup\ntext\n# Real Title\nmore\n# Second\nx\n", "Real Title"),
        (b"## Only level two\ntext\n", None),
        (b"Hand Book\n=========\ntext\n", "Hand Book"),
        (b"# Closed heading ##\ntext\n", "Closed heading"),
    ],
)
def test_markdown_title_is_first_h1(source: bytes, title: str | None) -> None:
    assert parse("doc.md", source).title == title


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_markdown_hash_lines_in_fenced_code_are_body_lines(fence: str) -> None:
    source = f"# Setup\n{fence}bash\n# install it\npip install x\n{fence}\nAfter code.\n".encode()
    assert outline(parse("setup.md", source)) == [
        (
            ("Setup",),
            [(2, f"{fence}bash"), (3, "# install it"), (4, "pip install x"), (5, fence), (6, "After code.")],
        ),
    ]


def test_markdown_fence_closes_only_on_matching_marker() -> None:
    source = b"# A\n````\n```\n# still code\n````\n# B\ntext\n"
    assert outline(parse("a.md", source)) == [
        (("A",), [(2, "````"), (3, "```"), (4, "# still code"), (5, "````")]),
        (("B",), [(7, "text")]),
    ]


def test_markdown_setext_headings_nest_like_atx() -> None:
    source = b"Guide\n=====\n\nWelcome.\n\nInstall\n-------\nRun the installer.\n\n### Linux\nUse apt.\n"
    document = parse("guide.markdown", source)
    assert outline(document) == [
        (("Guide",), [(4, "Welcome.")]),
        (("Guide", "Install"), [(8, "Run the installer.")]),
        (("Guide", "Install", "Linux"), [(11, "Use apt.")]),
    ]
    assert document.title == "Guide"


@pytest.mark.parametrize(
    "source",
    [
        b"# A\nIntro\n\n---\nafter rule\n",  # a rule after a blank line
        b"# A\nIntro\n- item\n---\nafter rule\n",  # a list item cannot be a setext heading
    ],
)
def test_markdown_dash_rule_that_is_not_setext_stays_body(source: bytes) -> None:
    document = parse("a.md", source)
    assert [section.heading_path for section in document.sections] == [("A",)]
    assert "---" in [line.text for line in document.sections[0].lines]


@pytest.mark.parametrize("line", [b"#hashtag is text", b"    # indented code", b"####### seven hashes"])
def test_markdown_lines_that_are_not_atx_headings_stay_body(line: bytes) -> None:
    assert outline(parse("a.md", b"# A\n" + line + b"\n")) == [(("A",), [(2, line.decode())])]


def test_markdown_front_matter_is_skipped_and_gives_fallback_title() -> None:
    source = b'---\ntitle: "Refund Policy"\nauthor: me\n---\nBody text.\n\n## Details\nMore.\n'
    document = parse("policy.md", source)
    assert outline(document) == [((), [(5, "Body text.")]), (("Details",), [(8, "More.")])]
    assert document.title == "Refund Policy"


# --- plain text ----------------------------------------------------------------------------


def test_plain_text_is_one_section_without_title_keeping_line_numbers() -> None:
    document = parse("notes.txt", b"# not a heading\r\n\r\nsecond paragraph   \r\n\t\r\nlast line")
    assert document.title is None
    assert document.media_type == "text/plain"
    assert document.line_count == 5
    assert outline(document) == [((), [(1, "# not a heading"), (3, "second paragraph"), (5, "last line")])]


def test_html_inside_a_txt_file_is_kept_as_text() -> None:
    document = parse("page.txt", b"<h1>Hi</h1>\n<script>alert(1)</script>\n")
    assert outline(document) == [((), [(1, "<h1>Hi</h1>"), (2, "<script>alert(1)</script>")])]


@pytest.mark.parametrize(
    ("content", "lines"),
    [
        (b"a\nb\n", [(1, "a"), (2, "b")]),
        (b"a\r\nb\r\n", [(1, "a"), (2, "b")]),
        (b"a\rb\r", [(1, "a"), (2, "b")]),
        (b"a\n\n\nb", [(1, "a"), (4, "b")]),
        (b"  indented\n", [(1, "  indented")]),
    ],
)
def test_lines_keep_original_numbers_across_newline_styles(content: bytes, lines: list[tuple[int, str]]) -> None:
    assert outline(parse("a.txt", content)) == [((), lines)]


def test_line_count_ignores_the_final_newline() -> None:
    assert parse("a.txt", b"one\ntwo\nthree\n").line_count == 3


# --- reStructuredText ---------------------------------------------------------------------


def test_rst_levels_follow_first_appearance_of_each_adornment_style() -> None:
    source = b"""=========
Handbook
=========

Intro.

Billing
=======

Billing body.

Refunds
-------

Refund body.

Support
=======

Support body.
"""
    document = parse("handbook.rst", source)
    # Overline+underline "=" and underline-only "=" are different styles, so Billing is level 2.
    assert outline(document) == [
        (("Handbook",), [(5, "Intro.")]),
        (("Handbook", "Billing"), [(10, "Billing body.")]),
        (("Handbook", "Billing", "Refunds"), [(15, "Refund body.")]),
        (("Handbook", "Support"), [(20, "Support body.")]),
    ]
    assert document.title == "Handbook"
    assert document.media_type == "text/x-rst"


def test_rst_underline_shorter_than_title_is_not_a_title() -> None:
    document = parse("a.rst", b"Title\n=====\n\nLonger title here\n---\nbody\n")
    assert outline(document) == [(("Title",), [(4, "Longer title here"), (5, "---"), (6, "body")])]


def test_rst_explicit_markup_lines_are_dropped_but_admonition_text_kept() -> None:
    source = (
        b"Guide\n=====\n\n.. _guide-label:\n\n.. note:: Back up first.\n"
        b"\n.. code-block:: python\n\n   print('x')\n"
    )
    assert outline(parse("guide.rst", source)) == [
        (("Guide",), [(6, "Back up first."), (10, "   print('x')")]),
    ]


# --- HTML ----------------------------------------------------------------------------------

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


# --- PDF -----------------------------------------------------------------------------------


def test_pdf_pages_become_sections_with_lines_counted_across_pages() -> None:
    document = parse("manual.pdf", pdf_bytes("First page\nsecond line", "", "Third page text", title="Manual"))
    assert outline(document) == [
        (("Page 1",), [(1, "First page"), (2, "second line")]),
        (("Page 3",), [(3, "Third page text")]),
    ]
    assert document.title == "Manual"
    assert document.line_count == 3
    assert document.media_type == "application/pdf"


def test_pdf_without_metadata_title_has_no_title() -> None:
    assert parse("x.pdf", pdf_bytes("text")).title is None


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (pdf_bytes(""), "the PDF has no text layer"),
        (pdf_bytes("secret", user_password="pw"), "the PDF is encrypted; upload an unencrypted copy"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(64), "not a PDF (content does not start with %PDF-)"),
        (b"MZ\x90\x00\x03\x00\x00\x00", "not a PDF (content does not start with %PDF-)"),
        (b"Just some text", "not a PDF (content does not start with %PDF-)"),
    ],
)
def test_pdf_rejections(content: bytes, reason: str) -> None:
    assert rejection("file.pdf", content).reason == reason


def test_pdf_that_pypdf_cannot_read_is_rejected_with_a_short_reason() -> None:
    error = rejection("broken.pdf", b"%PDF-1.7\n" + b"\xde\xad\xbe\xef" * 64)
    assert error.reason.startswith("unreadable PDF: ")
    assert len(error.reason) <= len("unreadable PDF: ") + 120


def test_truncated_pdf_is_rejected_as_unreadable() -> None:
    assert rejection("cut.pdf", pdf_bytes("hello")[:300]).reason.startswith("unreadable PDF: ")


# --- rejections and decoding ---------------------------------------------------------------

ALL_EXTENSIONS = ".htm, .html, .markdown, .md, .pdf, .rst, .txt"
RANDOM_BYTES_WITHOUT_NUL = bytes(random.Random(7).choices(range(1, 256), k=4000))


@pytest.mark.parametrize(
    ("file_name", "content", "reason"),
    [
        ("report.docx", b"hello", f"unsupported file type '.docx' (supported: {ALL_EXTENSIONS})"),
        ("Makefile", b"all:", f"unsupported file type (no extension) (supported: {ALL_EXTENSIONS})"),
        ("empty.md", b"", "the file is empty"),
        ("blank.txt", b" \r\n\t\n  ", "the file is empty"),
        ("blank.html", b"\xef\xbb\xbf\n\n", "the file is empty"),
        ("nul.txt", b"looks like text\x00but is not", "binary content, not text"),
        ("elf.txt", b"\x7fELF\x02\x01\x01rest", "binary content, not text"),
        ("exe.md", b"MZ\x90\x00\x03\x00", "binary content, not text"),
        ("image.md", b"\x89PNG\r\n\x1a\nIHDR", "binary content, not text"),
        ("photo.txt", b"\xff\xd8\xff\xe0JFIF", "binary content, not text"),
        ("anim.rst", b"GIF89a....", "binary content, not text"),
        ("archive.html", b"PK\x03\x04\x14\x00", "binary content, not text"),
        ("paper.txt", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "binary content, not text"),
        ("noise.txt", RANDOM_BYTES_WITHOUT_NUL, "text is not valid UTF-8 and its encoding could not be detected"),
        ("headings.md", b"# Only\n\n## Headings\n", "the file has no body text (only headings or markup)"),
        ("shell.html", b"<html><head><title>App</title></head><body><script>x()</script></body></html>",
         "the file has no body text (only headings or markup)"),
    ],
)
def test_rejection_reasons(file_name: str, content: bytes, reason: str) -> None:
    error = rejection(file_name, content)
    assert error.reason == reason
    assert str(error) == f"{file_name}: {reason}"


@pytest.mark.parametrize(
    ("size", "limit", "reason"),
    [
        (int(25.3 * MB), 20 * MB, "the file is 25.3 MB, over the 20 MB limit"),
        (20 * MB + 1, 20 * MB, "the file is 20,971,521 bytes, over the 20,971,520 byte limit"),
        (3 * MB, MB // 2, "the file is 3 MB, over the 0.5 MB limit"),
    ],
)
def test_file_over_the_size_limit_is_rejected_in_mb(size: int, limit: int, reason: str) -> None:
    assert rejection("big.txt", b"a" * size, max_bytes=limit).reason == reason


def test_file_exactly_at_the_size_limit_is_accepted() -> None:
    assert parse("edge.txt", b"a" * 100, max_bytes=100).line_count == 1


def test_size_is_checked_before_content() -> None:
    assert rejection("big.pdf", b"not a pdf at all", max_bytes=4).reason.startswith("the file is ")


@pytest.mark.parametrize(
    ("file_name", "base_name"),
    [
        ("../../etc/passwd.docx", "passwd.docx"),
        ("C:\\Users\\me\\Desktop\\notes.exe", "notes.exe"),
        ("/srv/uploads/x.zip", "x.zip"),
    ],
)
def test_rejection_names_only_the_base_name(file_name: str, base_name: str) -> None:
    error = rejection(file_name, b"x")
    assert error.file_name == base_name
    assert str(error).startswith(f"{base_name}: unsupported file type")


def test_parsed_document_keeps_only_the_base_name() -> None:
    assert parse("docs/sub\\Guide.MD", b"# G\ntext\n").file_name == "Guide.MD"


@pytest.mark.parametrize(("extension", "media_type"), sorted(SUPPORTED.items()))
def test_extension_decides_media_type_case_insensitively(extension: str, media_type: str) -> None:
    content = pdf_bytes("text") if media_type == "application/pdf" else b"text\n"
    assert parse(f"FILE{extension.upper()}", content).media_type == media_type


def test_rejected_file_survives_pickling() -> None:
    error = pickle.loads(pickle.dumps(RejectedFile("a.txt", "the file is empty")))
    assert (error.file_name, error.reason, str(error)) == ("a.txt", "the file is empty", "a.txt: the file is empty")


def test_latin1_text_decodes_via_detection() -> None:
    text = "Señor Muñoz habló con el niño en la estación. ¿Dónde está la biblioteca?"
    assert outline(parse("es.txt", text.encode("latin-1"))) == [((), [(1, text)])]


def test_cyrillic_legacy_encoding_decodes_via_detection() -> None:
    text = "Съешь же ещё этих мягких французских булок, да выпей чаю. Вчера мы ходили в магазин."
    assert outline(parse("ru.txt", text.encode("cp1251"))) == [((), [(1, text)])]


@pytest.mark.parametrize(
    "content",
    [
        "\ufeff# Título\nbody\n".encode(),
        "# Título\nbody\n".encode("utf-16"),
        "# Título\nbody\n".encode("utf-32"),
    ],
)
def test_byte_order_marks_are_honoured_and_stripped(content: bytes) -> None:
    document = parse("t.md", content)
    assert document.title == "Título"
    assert outline(document) == [(("Título",), [(2, "body")])]


def test_text_starting_with_mz_as_a_word_is_not_binary() -> None:
    assert outline(parse("mz.txt", b"MZ Corp annual report\n")) == [((), [(1, "MZ Corp annual report")])]


def test_sections_and_lines_are_frozen() -> None:
    line = Line(number=1, text="x")
    section = Section(heading_path=(), lines=(line,))
    with pytest.raises(AttributeError):
        line.text = "y"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        section.lines = ()  # type: ignore[misc]
