"""Quantity phrases said one way, antonyms, role nouns and content words in order (wording.py)."""
import pytest

from answers.pipeline.text.claims import read_claims
from answers.pipeline.text.tokens import DEFAULT
from answers.pipeline.text.wording import antonym_terms, content_words, phrases, role_of, say_quantities


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("A ticket can be reopened a single time.", "A ticket can be reopened one time."),
        ("A ticket can be reopened only once.", "A ticket can be reopened one time."),
        ("Backups run once a day.", "Backups run one time a day."),
        ("Each link is used once, then it expires.", "Each link is used one time, then it expires."),
        ("You may retry twice.", "You may retry two times."),
        ("Once the export ends, we email you.", "Once the export ends, we email you."),
        ("Do it at once.", "Do it at once."),
        ("Three times a week.", "Three times a week."),
        ("Owners may upgrade whenever they like.", "Owners may upgrade at any time."),
        ("Members may empty their trash whenever they want.", "Members may empty their trash at any time."),
        ("An upgrade applies straight away.", "An upgrade applies immediately."),
        ("Space is freed right away.", "Space is freed immediately."),
        ("Share links stop working right then.", "Share links stop working immediately."),
        ("Whenever the team approves, we pay.", "Whenever the team approves, we pay."),
        ("Send them away.", "Send them away."),
    ],
)
def test_quantity_phrases_are_said_one_way_and_a_clause_opening_once_is_left(text, said):
    assert say_quantities(text) == said


def test_antonym_terms_are_the_stems_of_the_other_side():
    assert antonym_terms(frozenset({"open", "weekend"}), DEFAULT) == {"close"}
    assert antonym_terms(frozenset({"option"}), DEFAULT) >= {"requir"}
    assert antonym_terms(frozenset({"weekend"}), DEFAULT) == frozenset()


def test_one_role_said_two_ways_is_one_role_and_other_words_are_none():
    assert role_of("admin", DEFAULT) == role_of("administr", DEFAULT) is not None
    assert role_of("owner", DEFAULT) != role_of("admin", DEFAULT)
    assert role_of("billing", DEFAULT) is None


def test_content_words_keep_an_antonyms_stop_word_and_drop_other_stop_words_and_markers():
    words = content_words("Invoices are sent before the order ships [2].", DEFAULT)

    assert [word.term for word in words] == ["invoic", "sent", "before", "order", "ship"]
    assert words[0].written == "Invoices"


def test_phrases_do_not_run_across_sentences():
    found = phrases("The billing team reviews it. Support answers.", DEFAULT)

    assert ("bill", "team") in found
    assert ("review", "support") not in found


def test_digits_run_into_capitals_are_an_identifier_but_a_short_suffix_keeps_a_number():
    assert [n.value for n in read_claims("Turn on 2FA for 10 users.", DEFAULT).numbers] == ["10"]
    assert [n.value for n in read_claims("Support answers 24h a day, 2x faster.", DEFAULT).numbers] == ["24", "2"]
