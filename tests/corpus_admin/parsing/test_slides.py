"""PPTX: a heading per slide naming it, its text in reading order, table rows and notes, each with its slide number."""
import io

import pptx
import pytest
from pptx.util import Inches

from corpus_admin.parsing.document import Block, Heading
from corpus_admin.parsing.slides import pptx_events
from corpus_admin.testing import docx_bytes, pptx_bytes, rejection

TITLE_ONLY, BLANK = 5, 6  # layouts of python-pptx's default template


def saved(deck) -> bytes:
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def text_box(slide, text: str, *, top: float, left: float = 1.0) -> None:
    slide.shapes.add_textbox(Inches(left), Inches(top), Inches(3), Inches(1)).text_frame.text = text


def test_each_slide_is_a_heading_with_its_text_tables_and_notes_on_its_page() -> None:
    deck = pptx.Presentation()
    deck.core_properties.title = "Pricing 2025"
    first = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    first.shapes.title.text = "Plans"
    text_box(first, "Billed yearly.", top=5)  # added first but lower down: read after the box above it
    text_box(first, "Standard plan costs $19 per month.\nPro plan costs $49 per month.", top=2)
    first.notes_slide.notes_text_frame.text = "Mention the student discount."
    second = deck.slides.add_slide(deck.slide_layouts[BLANK])
    rows = second.shapes.add_table(3, 2, Inches(1), Inches(1), Inches(6), Inches(2)).table
    for r, row in enumerate([["Plan", "Seats"], ["Standard", "5"], ["Pro", "50"]]):
        for c, text in enumerate(row):
            rows.cell(r, c).text = text

    title, found = pptx_events(content=saved(deck), name="pricing.pptx")

    assert title == "Pricing 2025"
    assert found == [
        Heading(("Slide 1: Plans",)),
        Block("Standard plan costs $19 per month.", 1, 1, page=1),
        Block("Pro plan costs $49 per month.", 2, 2, page=1),
        Block("Billed yearly.", 3, 3, page=1),
        Heading(("Slide 1: Plans", "Notes")),
        Block("Mention the student discount.", 4, 4, page=1),
        Heading(("Slide 2",)),
        Block("Plan: Standard; Seats: 5", 5, 5, page=2),
        Block("Plan: Pro; Seats: 50", 6, 6, page=2),
    ]


def test_grouped_shapes_are_read_and_a_hidden_slide_is_left_out_keeping_the_numbers() -> None:
    deck = pptx.Presentation()
    hidden = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    hidden.shapes.title.text = "Draft prices"
    text_box(hidden, "Not decided yet.", top=2)
    hidden._element.set("show", "0")
    shown = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    shown.shapes.title.text = "Support"
    group = shown.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(3), Inches(3), Inches(1)).text_frame.text = "Email support is free."
    group.shapes.add_textbox(Inches(1), Inches(2), Inches(3), Inches(1)).text_frame.text = "Phone support is on Pro."

    _, found = pptx_events(content=saved(deck), name="deck.pptx")

    assert found == [
        Heading(("Slide 2: Support",)),
        Block("Phone support is on Pro.", 1, 1, page=2),
        Block("Email support is free.", 2, 2, page=2),
    ]


def test_default_template_gives_no_title() -> None:
    assert pptx_events(content=pptx_bytes(("Hello", "World")), name="x.pptx")[0] is None


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"PK\x03\x04zip", "not a PowerPoint presentation (.pptx) (the content is not a zip archive)"),
        (docx_bytes("Hello"), "the file is a Word document (.docx), not a PowerPoint presentation (.pptx)"),
    ],
)
def test_a_pptx_that_is_not_one_is_rejected_naming_the_reason(content: bytes, reason: str) -> None:
    assert str(rejection("deck.pptx", content)) == f"deck.pptx: {reason}"
