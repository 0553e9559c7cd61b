"""A generator's Markdown is taken out of its sentences; list items and headings end the sentences before them."""
import pytest

from answers.pipeline.text.markup import ORDERED, UNORDERED, MarkdownSentenceBuffer, PlainSentence, plain_text


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        ("Refunds take **5 business days** [1].", "Refunds take 5 business days [1]."),
        ("Set `SESSION_COOKIE_AGE` to *1209600* [2].", "Set SESSION_COOKIE_AGE to 1209600 [2]."),
        ("See [the refunds page](https://example.com/r) for ~~old~~ details [1].",
         "See the refunds page for old details [1]."),
        ("snake_case_name and 2 * 3 stay as written [1].", "snake_case_name and 2 * 3 stay as written [1]."),
        ("**Refunds take 5 days [1].", "Refunds take 5 days [1]."),
        ("<b>Raw</b> HTML stays text [1].", "<b>Raw</b> HTML stays text [1]."),
        ("Markers [1][2] and [1, 3] stay [2].", "Markers [1][2] and [1, 3] stay [2]."),
    ],
)
def test_inline_markup_is_dropped_and_the_words_and_markers_kept(written: str, plain: str) -> None:
    assert plain_text(written) == plain


def sentences_of(text: str, *, step: int = 2, finished: bool = True) -> tuple[list[PlainSentence], str]:
    """What the buffer releases for text streamed `step` characters at a time."""
    buffer = MarkdownSentenceBuffer()
    found: list[PlainSentence] = []
    for start in range(0, len(text), step):
        found += buffer.feed(text[start : start + step])
    rest, tail = buffer.flush(finished=finished)
    return found + rest, tail


@pytest.mark.parametrize("step", [1, 3, 1000])
def test_numbered_and_bulleted_lines_are_list_items_without_their_marks(step: int) -> None:
    text = ("To reset it:\n1. Open **Settings** [1].\n2. Click `Reset` [1]. It asks again [1].\n\n"
            "- A bullet [2]\n- Another [2].\n")
    found, tail = sentences_of(text, step=step)
    assert found == [
        PlainSentence("To reset it:"),
        PlainSentence("Open Settings [1].", ORDERED, 1),
        PlainSentence("Click Reset [1].", ORDERED, 2),
        PlainSentence("It asks again [1].", ORDERED, 2),
        PlainSentence("A bullet [2]", UNORDERED, 3),
        PlainSentence("Another [2].", UNORDERED, 4),
    ]
    assert tail == ""


def test_a_heading_line_is_a_sentence_of_its_own_without_its_hashes() -> None:
    found, _ = sentences_of("## Refund policy\nRefunds take 5 days [1].")
    assert found == [PlainSentence("Refund policy"), PlainSentence("Refunds take 5 days [1].")]


def test_a_blank_line_ends_the_list() -> None:
    found, _ = sentences_of("- Open Settings [1].\n\nThat is all [1].")
    assert found == [PlainSentence("Open Settings [1].", UNORDERED, 1), PlainSentence("That is all [1].")]


@pytest.mark.parametrize(
    "text", ["1.5 GB is the limit [1].", "2024 was a leap year [1].", "-5 degrees is the floor [1].", "*Emphasis* [1]."]
)
def test_a_line_that_only_looks_like_a_list_item_is_not_one(text: str) -> None:
    found, _ = sentences_of(text, step=1)
    assert [s.list_item for s in found] == [""]


def test_a_list_item_cut_off_by_a_failure_is_the_unfinished_tail_not_a_sentence() -> None:
    found, tail = sentences_of("- Open Settings [1].\n- Refunds are not", finished=False)
    assert found == [PlainSentence("Open Settings [1].", UNORDERED, 1)]
    assert tail == "Refunds are not"


def test_prose_is_released_sentence_by_sentence_as_before() -> None:
    buffer = MarkdownSentenceBuffer()
    assert buffer.feed("Refunds take 5 days [1]. Digital") == [PlainSentence("Refunds take 5 days [1].")]
    assert buffer.flush() == ([], "Digital")
