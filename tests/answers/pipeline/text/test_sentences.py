"""The sentence buffer releases whole sentences only, with their markers, and never splits inside one."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.text.sentences import (
    SentenceBuffer,
    parse_markers,
    passage_sentences,
    sentence_spans,
    split_sentences,
)


def _stream(text: str, step: int = 1) -> tuple[list[str], str]:
    buffer = SentenceBuffer()
    sentences: list[str] = []
    for i in range(0, len(text), step):
        sentences += buffer.feed(text[i : i + step])
    rest, tail = buffer.flush()
    return sentences + rest, tail


@pytest.mark.parametrize(
    "sentence",
    [
        "Use a client, e.g. the desktop app, to sync [1].",
        "Version v2.5 fixed the sync bug [2].",
        "Files up to 2.5 GB sync through the desktop app [1].",
        "Dr. Rivera approved the policy [3].",
        "Refunds are processed within 5-7 business days [1][2].",
        "The SLA is 99.9% per month [4].",
        "Contact support, i.e. the help desk, at any time [1].",
        "See ![diagram](http://example.com/a.png) for the flow [2].",
        "Open /search?q=1 to try it [1].",
    ],
)
def test_sentence_is_released_whole_whatever_the_chunking_of_the_stream(sentence):
    for step in (1, 3, 7, len(sentence)):
        assert _stream(sentence + " Next one [2].", step) == ([sentence, "Next one [2]."], "")


def test_marker_after_the_full_stop_stays_with_its_sentence():
    assert _stream("Trash keeps files for 30 days. [2] Backups run hourly [1].") == (
        ["Trash keeps files for 30 days. [2]", "Backups run hourly [1]."],
        "",
    )


def test_sentence_is_held_until_it_is_complete():
    buffer = SentenceBuffer()

    assert buffer.feed("Refunds take 5") == []
    assert buffer.feed(".") == []  # "5." may yet become "5.5"
    assert buffer.feed("5 days [1]. Trial") == ["Refunds take 5.5 days [1]."]


def test_unfinished_text_at_the_end_is_returned_as_the_tail():
    assert _stream("Refunds take 5 days [1]. The trial lasts") == (["Refunds take 5 days [1]."], "The trial lasts")


def test_blank_line_ends_a_sentence_without_punctuation():
    assert _stream("Summary\n\nThe trial lasts 14 days [1].") == (["Summary", "The trial lasts 14 days [1]."], "")


@pytest.mark.parametrize(
    ("sentence", "text", "cited"),
    [
        ("Refunds take 5-7 days [1].", "Refunds take 5-7 days.", (1,)),
        ("Plans cost $12 [2][1] .", "Plans cost $12.", (2, 1)),
        ("Both apply [1, 3].", "Both apply.", (1, 3)),
        ("Repeated [2] marker [2].", "Repeated marker.", (2,)),
        ("No marker here.", "No marker here.", ()),
        ("An array [a] is not a marker.", "An array [a] is not a marker.", ()),
        ("Initialize it: ./easyrsa init-pki [2].", "Initialize it: ./easyrsa init-pki.", (2,)),
        ("Activate it with source .venv/bin/activate [1].", "Activate it with source .venv/bin/activate.", (1,)),
    ],
)
def test_markers_are_parsed_and_stripped(sentence, text, cited):
    marked = parse_markers(sentence)

    assert (marked.text, marked.cited) == (text, cited)


def test_split_sentences_on_finished_text():
    assert split_sentences("Team costs $12. Business costs $25 per user.") == [
        "Team costs $12.",
        "Business costs $25 per user.",
    ]


@pytest.mark.parametrize(
    ("passage", "sentences"),
    [
        ("SINGLE FILE LIMIT\nThe upload limit is 100 MB.", ["SINGLE FILE LIMIT", "The upload limit is 100 MB."]),
        (
            "Refunds are processed within\n5-7 business days. Contact us.",
            ["Refunds are processed within 5-7 business days.", "Contact us."],
        ),
        ("- Team costs $12.\n- Business costs $25", ["Team costs $12.", "Business costs $25"]),
        ("```\ncode line\n```\nAfter the code.", ["After the code."]),
        ("The limit is 2.5 GB. Ask support!", ["The limit is 2.5 GB.", "Ask support!"]),
        ("  ", []),
    ],
)
def test_passage_sentences_keep_headings_and_list_items_apart_and_leave_code_out(passage, sentences):
    assert passage_sentences(passage) == sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Use a client, e.g. the desktop app, to sync. Then wait.", ["Use a client, e.g. the desktop app, to sync.",
                                                                    "Then wait."]),
        ("Version v2.5 fixed it. Upgrade now.", ["Version v2.5 fixed it.", "Upgrade now."]),
        ("Files up to 2.5 GB sync. Larger ones do not.", ["Files up to 2.5 GB sync.", "Larger ones do not."]),
        ("Dr. Rivera approved it. Mr. Lee too.", ["Dr. Rivera approved it.", "Mr. Lee too."]),
        ("  Padded sentence.   Next  ", ["Padded sentence.", "Next"]),
        ("Trash keeps files for 30 days. [2] Backups run hourly.", ["Trash keeps files for 30 days. [2]",
                                                                   "Backups run hourly."]),
        ("", []),
    ],
)
def test_sentence_spans_are_the_offsets_of_the_splitters_sentences(text, sentences):
    spans = sentence_spans(text)

    assert [text[start:end] for start, end in spans] == sentences


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .!?\n[]1,eg)'")) | st.characters(), max_size=80))
def test_sentence_spans_give_exactly_what_split_sentences_gives(text):
    assert [text[start:end] for start, end in sentence_spans(text)] == split_sentences(text)


def test_sentence_spans_of_a_long_text_take_time_in_proportion_to_its_length():
    text = "Refunds take 2.5 days, e.g. by card. " * 40_000 + "x" * 1_000_000  # 2.5 MB: quadratic would never end

    spans = sentence_spans(text)

    assert len(spans) == 40_001 and spans[-1] == (len(text) - 1_000_000, len(text))
