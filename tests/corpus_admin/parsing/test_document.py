"""What parsing produces is immutable."""
import pytest

from corpus_admin.parsing import Line, Section


def test_sections_and_lines_are_frozen() -> None:
    line = Line(number=1, text="x")
    section = Section(heading_path=(), lines=(line,))
    with pytest.raises(AttributeError):
        line.text = "y"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        section.lines = ()  # type: ignore[misc]
