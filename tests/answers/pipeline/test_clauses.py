"""A clause that gives one claim's subject the other claim's words is a clause swap, within one sentence of the span
or across its two; a clause that keeps its own claim's words, or a pronoun's, is none."""
import pytest

from answers.pipeline.clauses import clause_swap_problems, order_swap_problems
from answers.pipeline.text.tokens import DEFAULT

COLOURS = "The web app shows file sizes and the mobile app shows folder colours."
SUPPORT = "Phone support is open on weekdays and chat support on weekends."
SYNC = (
    "The desktop app checks for remote changes every 15 seconds. "
    "Local changes are uploaded as soon as a file is saved and closed."
)


@pytest.mark.parametrize(
    ("sentence", "span", "reasons"),
    [
        ("The mobile app shows file sizes.", COLOURS, ["[1] says file sizes of web, not of mobile"]),
        ("The web app shows folder colours and the mobile app shows file sizes.", COLOURS,
         ["[1] says folder colours of mobile, not of web", "[1] says file sizes of web, not of mobile"]),
        ("Chat support is open on weekdays.", SUPPORT, ["[1] says open weekdays of Phone, not of Chat"]),
        ("Local changes are uploaded every 15 seconds.", SYNC,
         ["[1] says every 15 seconds of desktop app, not of Local"]),
        ("Members who use single sign-on keep a Lumora password.",
         "Members who use single sign-on do not have a Lumora password. Workspace owners keep a Lumora password.",
         ["[1] says keep of Workspace owners, not of Members use"]),
    ],
)
def test_a_subject_given_the_other_claims_words_is_a_clause_swap(sentence, span, reasons):
    assert clause_swap_problems(1, sentence, span, DEFAULT) == reasons


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        ("The mobile app shows folder colours.", COLOURS),
        ("The web app shows file sizes, and the mobile app shows folder colours.", COLOURS),
        ("Chat support is open on weekends.", SUPPORT),  # "is open" said once, of both
        ("Local changes are uploaded as soon as a file is saved.", SYNC),
        ("Owners can invite people.", "Owners manage billing and they can also invite people."),  # one subject
        ("Owners invite people.", "Owners invite people and remove guests."),
    ],
)
def test_a_clause_that_keeps_its_own_claims_words_is_no_swap(sentence, span):
    assert clause_swap_problems(1, sentence, span, DEFAULT) == []


@pytest.mark.parametrize(
    ("sentence", "span", "reasons"),
    [
        ("The incident commander assigns the first responder [1].",
         "The first responder assigns an incident commander.", ["[1] says first responder assigns incident commander"]),
        ("A conflict happens when two people sync the same file before changing it [1].",
         "A conflict happens when two people change the same file before syncing.",
         ["[1] says conflict happens two people change file before syncing"]),
    ],
)
def test_the_spans_words_with_two_runs_exchanged_are_an_order_swap(sentence, span, reasons):
    assert order_swap_problems(1, sentence, span, DEFAULT) == reasons


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        ("Syncing can be paused from the tray menu [1].", "You can pause syncing from the tray menu."),  # a passive
        ("Members share, edit and upload files [1].", "Members upload, edit and share files."),  # a list
        # Nothing kept between the two words exchanged: a rewording.
        ("Pressing Enter opens the file you selected [1].", "Press Enter to open the selected file."),
        ("The first responder assigns an incident commander [1].",
         "The first responder assigns an incident commander."),
    ],
)
def test_a_reordering_that_says_the_same_is_no_order_swap(sentence, span):
    assert order_swap_problems(1, sentence, span, DEFAULT) == []
