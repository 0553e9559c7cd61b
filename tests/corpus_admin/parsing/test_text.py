"""Plain text: one untitled section, every line kept with its original number."""
import pytest

from corpus_admin.testing import outline, parse


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
