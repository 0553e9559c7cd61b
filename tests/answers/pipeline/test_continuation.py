"""A follow-up that goes on reading the previous answer's cited passage gets that passage's headings beside it."""
import pytest

from answers.pipeline.config import PipelineConfig
from answers.pipeline.continuation import anchorless, continued_passage, heading_path, with_passage
from answers.pipeline.topics import words_of

CONFIG = PipelineConfig()
EXPIRY = ("Share links\nShare links\nLink expiry\nShare links expire after 7 days by default. The person who creates a "
          "link can choose a different expiry date. The longest allowed link expiry is 365 days.")
BILLING = ("Refund policy\nRefund policy\nWho can request a refund\nOnly the workspace owner can request a refund. "
           "Each refund request is reviewed by the Lumora Labs billing team.")


def test_heading_path_is_the_title_and_headings_once_each_and_the_text_after_them():
    path, body = heading_path(EXPIRY)

    assert path == ("Share links", "Link expiry")
    assert body.startswith("Share links expire after 7 days")


def test_a_dated_line_is_no_heading():
    path, body = heading_path("Upload limits\nLast updated: March 1, 2024\nThe limit is 100 MB.")

    assert path == ("Upload limits",)
    assert body.startswith("Last updated")


@pytest.mark.parametrize(
    ("question", "previous", "cited", "path"),
    [
        # another sentence of the passage holds most of its words, and it names nothing of the passage's subject
        ("who can pick a different date?", "How long do share links last by default?", EXPIRY,
         ("Share links", "Link expiry")),
        # it names the passage's subject itself (a heading word, "link")
        ("who can pick a different link date?", "How long do share links last by default?", EXPIRY, ()),
        # it shares a word with the previous question
        ("who can choose a different expiry?", "What is the expiry of a share link?", EXPIRY, ()),
        # no sentence of the passage holds half its words
        ("which apps can pick a different font?", "How long do share links last by default?", EXPIRY, ()),
        # complete: nothing in it leans on an earlier turn
        ("how do I contact the billing team?", "Who can request a refund?", BILLING, ()),
        # a name of its own pins it down
        ("can a different Lumora date be picked?", "How long do share links last by default?", EXPIRY, ()),
        # more terms than a follow-up has
        ("who can pick a different date for every new public folder?", "How long do share links last?", EXPIRY, ()),
    ],
)
def test_a_question_continues_the_passage_only_when_it_leans_on_it(question, previous, cited, path):
    assert continued_passage(question, previous, (cited,), config=CONFIG) == path


@pytest.mark.parametrize(
    ("question", "leans"),
    [
        ("can guests?", True),  # a modal and a subject, no verb
        ("who can?", True),
        ("what does the second copy get called?", True),  # otherness
        ("does the folder need a share link?", True),  # a definite noun on its own
        ("how do I contact the billing team?", False),  # "billing team", a compound the passage writes
        ("which page shows the members that use the most space?", False),  # a clause pins "the members" down
        ("can I pay in euros?", False),
        ("what iOS version does the app require?", False),  # a name
    ],
)
def test_anchorless_tells_a_question_leaning_on_an_earlier_turn(question, leans):
    assert anchorless(words_of(question), (BILLING,)) is leans


def test_the_rewrite_puts_the_heading_path_after_the_question_as_words_a_reader_would_write():
    assert with_passage("who can pick a different date?", ("Share links", "Link expiry")) == (
        "who can pick a different date, about link expiry in share links?")
    # a heading's capital is only its place, unless the passages write its first word as a name (never in lower
    # case, capitalized mid-sentence) or it holds a capital after its first letter
    sla = "Lumora service level agreement\nScheduled maintenance is posted on the Lumora status page."
    assert with_passage("where are those notices posted?", ("Lumora service level agreement",), (sla,)) == (
        "where are those notices posted, about Lumora service level agreement?")
    assert with_passage("how long until it goes read-only?", ("Billing and invoices",), (BILLING,)) == (
        "how long until it goes read-only, about billing and invoices?")
    assert with_passage("who reviews those?", ("API rate limits", "Higher limits")) == (
        "who reviews those, about higher limits in API rate limits?")
