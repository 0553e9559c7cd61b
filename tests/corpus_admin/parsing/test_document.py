"""What parsing produces is immutable, and a block knows the source line of each part of its text."""
import pytest

from corpus_admin.parsing import Block, Section
from corpus_admin.parsing.document import Heading, build_sections


def test_sections_and_blocks_are_frozen() -> None:
    block = Block(text="x", line_start=1, line_end=1)
    section = Section(heading_path=(), blocks=(block,))
    with pytest.raises(AttributeError):
        block.text = "y"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        section.blocks = ()  # type: ignore[misc]


@pytest.mark.parametrize(("offset", "line"), [(0, 4), (5, 4), (6, 5), (15, 5), (16, 7), (40, 7)])
def test_a_prose_block_gives_the_line_of_any_offset_from_its_marks(offset: int, line: int) -> None:
    block = Block(text="Refunds take five days after approval.", line_start=4, line_end=7,
                  line_marks=((6, 5), (16, 7)))
    assert block.line_at(offset) == line


def test_a_code_block_counts_its_own_lines() -> None:
    block = Block(text="a = 1\nb = 2\n\nc = 3", line_start=10, line_end=13, code=True)
    assert [block.line_at(block.text.index(name)) for name in "abc"] == [10, 11, 13]


def test_sections_start_at_headings_and_drop_blank_blocks() -> None:
    events = [Block("intro", 1, 1), Heading(("A",)), Block("  ", 3, 3), Heading(("B",)), Block("body", 5, 5)]
    sections = build_sections(events=events)
    assert [(s.heading_path, [b.text for b in s.blocks]) for s in sections] == [((), ["intro"]), (("B",), ["body"])]
