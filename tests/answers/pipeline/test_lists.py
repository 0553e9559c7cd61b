"""Shown sentences are list items when the generator wrote them as such or when they quote a stored list item."""
import dataclasses

import pytest

from answers.pipeline.events import ListItem, SentenceVerified
from answers.pipeline.generate.extractive import ExtractiveGenerator
from answers.pipeline.records import SentenceSpan
from answers.testing.scripted import ScriptedGenerator
from tests.answers.pipeline.test_answer import CONFIG, IndexRetriever, run

STEPS = (
    "To reset your password, follow these steps.\n"
    "Open the account settings page from the menu.\n"
    "Choose the security section of the settings.\n"
    "Click the reset password button and confirm."
)


@pytest.fixture
def steps_record(make_record):
    """A chunk whose last three sentences were stored as items of a numbered list (lines 2-4)."""
    record = make_record("reset-v1-c01", text=STEPS)
    spans, start = [], 0
    for line, sentence in enumerate(STEPS.split("\n"), start=1):
        listed = "ordered" if line > 1 else ""
        spans.append(SentenceSpan(start, start + len(sentence), line, list_item=listed, item=line if listed else 0))
        start += len(sentence) + 1
    return dataclasses.replace(record, sentences=tuple(spans))


@pytest.fixture
def retriever(steps_record, make_record):
    """The steps among other passages (BM25 needs more than one document)."""
    others = [make_record("trash-v1-c01", source_id=2, text="Deleted files are kept in the trash for 30 days."),
              make_record("refunds-v1-c01", source_id=3, text="Refunds are processed within 5-7 business days.")]
    return IndexRetriever([steps_record, *others])


def shown(events: list) -> list[SentenceVerified]:
    return [event for event in events if isinstance(event, SentenceVerified)]


def test_an_extractive_answer_quoting_stored_steps_shows_them_as_one_ordered_list(retriever):
    events = run("How do I reset my password?", retriever, ExtractiveGenerator(CONFIG))
    sentences = shown(events)
    assert [s.text for s in sentences][-3:] == STEPS.split("\n")[1:]
    assert [s.list_item for s in sentences][-3:] == [
        ListItem(True, "reset-v1-c01:2"), ListItem(True, "reset-v1-c01:3"), ListItem(True, "reset-v1-c01:4")
    ]


def test_a_model_answer_loses_its_markdown_and_keeps_its_list(retriever):
    generator = ScriptedGenerator([
        "## Resetting\nTo reset it:\n",
        "1. **Open** the account settings page [1].\n",
        "2. Choose the `security` section [1]\n",
    ])
    events = run("How do I reset my password?", retriever, generator)
    sentences = shown(events)
    assert [(s.text, s.list_item) for s in sentences] == [
        ("Open the account settings page.", ListItem(True, "answer-1")),
        ("Choose the security section", ListItem(True, "answer-2")),
    ]
    dropped = [event.text for event in events if event.kind == "dropped"]
    assert dropped == ["Resetting", "To reset it:"]  # no citation: never shown


def test_a_model_sentence_that_only_paraphrases_a_stored_list_item_is_not_a_list_item(retriever):
    # One step in other words (a sentence joining two steps' words is judged as a clause swap: test_verify).
    generator = ScriptedGenerator(["From the menu, open the page of the account settings [1]."])
    (sentence,) = shown(run("How do I reset my password?", retriever, generator))
    assert sentence.list_item is None
