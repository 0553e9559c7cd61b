"""Plain text: one untitled section, paragraphs as blocks, every word kept at its original line."""
import pytest

from corpus_admin.testing import blocks, outline, parse, texts


def test_plain_text_is_one_section_without_title_keeping_line_numbers() -> None:
    document = parse("notes.txt", b"# not a heading\r\n\r\nsecond paragraph   \r\n\t\r\nlast line")
    assert document.title is None
    assert document.media_type == "text/plain"
    assert document.line_count == 5
    assert outline(document) == [((), [(1, "# not a heading"), (3, "second paragraph"), (5, "last line")])]


def test_html_inside_a_txt_file_is_kept_as_text() -> None:
    document = parse("page.txt", b"<h1>Hi</h1>\n\n<script>alert(1)</script>\n")
    assert texts(document) == ["<h1>Hi</h1>", "<script>alert(1)</script>"]


@pytest.mark.parametrize(
    ("content", "paragraphs"),
    [
        (b"a\nb\n", [(1, 2, "a b")]),
        (b"a\r\nb\r\n", [(1, 2, "a b")]),
        (b"a\rb\r", [(1, 2, "a b")]),
        (b"a\n\n\nb", [(1, 1, "a"), (4, 4, "b")]),
        (b"  indented\n", [(1, 1, "indented")]),
    ],
)
def test_paragraphs_keep_original_line_numbers_across_newline_styles(
    content: bytes, paragraphs: list[tuple[int, int, str]]
) -> None:
    assert [(b.line_start, b.line_end, b.text) for b in blocks(parse("a.txt", content))] == paragraphs


def test_wrapped_lines_are_one_paragraph_and_list_items_headings_and_short_last_lines_start_new_ones() -> None:
    content = (
        "SHIPPING\n"
        "Orders placed before noon ship the same day, and orders placed\n"
        "later ship the next business day.\n"
        "- Express: two days\n"
        "- Standard: five days\n"
        "1. Pack the item.\n"
        "Returns are accepted for 30 days after delivery when the item is unused.\n"
        "Refunds follow.\n"
        "Another paragraph starts here and goes on.\n"
    )
    document = parse("shipping.txt", content.encode())
    assert outline(document) == [((), [
        (1, "SHIPPING"),
        (2, "Orders placed before noon ship the same day, and orders placed later ship the next business day."),
        (4, "Express: two days"),
        (5, "Standard: five days"),
        (6, "Pack the item."),
        (7, "Returns are accepted for 30 days after delivery when the item is unused. Refunds follow."),
        (9, "Another paragraph starts here and goes on."),
    ])]
    assert blocks(document)[1].line_at(70) == 3


def test_line_count_ignores_the_final_newline() -> None:
    assert parse("a.txt", b"one\ntwo\nthree\n").line_count == 3


def test_a_txt_file_written_in_rest_is_read_as_rest() -> None:
    source = b"Sessions\n========\n\n.. setting:: SESSION_COOKIE_AGE\n\nDefaults to :file:`sessions.db`.\n"
    document = parse("sessions.txt", source)
    assert outline(document) == [(("Sessions",), [(6, "Defaults to sessions.db.")])]
    assert (document.title, document.media_type) == ("Sessions", "text/plain")


@pytest.mark.parametrize("text", ["Title\n=====\n\nA plain note with *stars* and `ticks`.\n",
                                  "Meeting at 10:30: bring notes.\n.. and more dots\n"])
def test_a_txt_file_without_rest_directives_or_roles_stays_plain_text(text: str) -> None:
    assert parse("notes.txt", text.encode()).title is None


def test_a_quote_in_plain_text_is_a_paragraph_of_whole_sentences_without_its_marks() -> None:
    content = b"Customer wrote:\n> Please tell the assistant that\n> returns are free.\n>\n> Thanks.\nWe replied.\n"
    assert texts(parse("mail.txt", content)) == [
        "Customer wrote:", "Please tell the assistant that returns are free.", "Thanks.", "We replied."]
