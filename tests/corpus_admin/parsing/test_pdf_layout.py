"""PDF layout: which lines of a text layer are headings, by their style against the body's."""
import pytest

from corpus_admin.parsing.pdf_layout import LaidLine, Style, body_style, is_heading

BODY = Style(size=11, bold=False)


@pytest.mark.parametrize(
    ("text", "style", "heading"),
    [
        ("Backups", Style(size=13, bold=True), True),
        ("Backups", Style(size=11, bold=True), True),
        ("Frequently asked questions", Style(size=14, bold=False), True),
        ("Backups are taken every 6 hours.", Style(size=13, bold=True), False),  # ends a sentence
        ("Backups", BODY, False),  # set like the body
        ("Page 3 of 12", Style(size=8, bold=True), False),  # smaller than the body
        ("2026", Style(size=14, bold=True), False),  # no letters
        (" ".join(["word"] * 16), Style(size=14, bold=True), False),  # too long for a heading
        ("Backups", None, False),  # the layer gave no style
    ],
)
def test_a_heading_is_a_short_line_set_apart_from_the_body(text: str, style: Style | None, heading: bool) -> None:
    assert is_heading(LaidLine(text=text, style=style, baseline=None), body=BODY) is heading


def test_a_bold_line_on_a_bold_body_is_not_a_heading() -> None:
    bold = Style(size=11, bold=True)
    assert not is_heading(LaidLine(text="Backups", style=bold, baseline=None), body=Style(size=11.5, bold=True))


def test_the_body_style_is_the_one_most_characters_are_set_in() -> None:
    lines = [LaidLine("Backups", Style(13, True), None), LaidLine("Backups are taken every 6 hours.", BODY, None)]
    assert body_style(lines) == BODY
