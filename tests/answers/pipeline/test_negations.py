"""Negations the polarity check of shared terms does not settle: one said of words the span never writes, and the
closer sentence of a two-sentence span negating what the sentence affirms."""
import pytest

from answers.pipeline.negations import negation_problems
from answers.pipeline.spans import support_span
from answers.pipeline.text.claims import read_claims
from answers.pipeline.text.tokens import DEFAULT, significant_terms

LOCKED = "The account owner receives an email when the account is locked.\nLocked accounts open again after an hour."
SIGN_ON = (
    "Members who use single sign-on do not have a Lumora password.\n"
    "Workspace owners keep a Lumora password so they can sign in if the identity provider is down."
)


def problems(sentence: str, text: str, make_record, *elsewhere: str) -> list[str]:
    record = make_record("doc-v1-c01", text=text, flagged=[])
    found = support_span(significant_terms(sentence, DEFAULT), record, tokenizer=DEFAULT)
    assert found is not None
    claims = read_claims(sentence, DEFAULT)
    return negation_problems(1, sentence, claims, found[0], record, DEFAULT, lambda: elsewhere)


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The account owner is not told when the account is locked.",
         ['[1] states no negation; the sentence negates "told"']),
        ("The account owner is emailed when the account is locked.", []),  # no negation to bear out
        ("The account owner does not receive an email when the account is locked.", []),  # shared: polarity's case
    ],
)
def test_a_negation_of_words_the_span_never_writes_needs_a_negation_in_the_span(sentence, expected, make_record):
    assert problems(sentence, LOCKED, make_record) == expected


def test_a_negation_of_unwritten_words_passes_where_the_span_negates_too_or_states_their_opposite(make_record):
    text = "Guests cannot open the Trash view.\nAdmins restore any file."

    assert problems("Guests are never shown the Trash view.", text, make_record) == []
    assert problems("At night the kiosk is not open.", "The kiosk is closed at night.", make_record) == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Members who use single sign-on also keep a Lumora password.",
         ['[1] negates "Lumora password"; the sentence affirms it']),
        ("Workspace owners keep a Lumora password for when the identity provider is down.", []),
        ("Members who use single sign-on have no Lumora password, but owners keep one.", []),
    ],
)
def test_the_closer_sentence_of_a_two_sentence_span_must_not_negate_what_the_sentence_affirms(
    sentence, expected, make_record
):
    assert problems(sentence, SIGN_ON, make_record) == expected


CONTACT = "The billing contact can be changed on the Billing page."
CURRENCY = "Invoices are issued in US dollars or euros. The currency cannot be changed later."


@pytest.mark.parametrize(
    ("sentence", "elsewhere", "expected"),
    [
        ("You can change an invoice's currency afterwards on the Billing page.", CURRENCY,
         ['[1] says elsewhere "The currency cannot be changed later."; the sentence affirms "change currency"']),
        ("You can change the billing contact on the Billing page.", CURRENCY, []),  # the span writes every word
        # the negating sentence is mostly other words: "Sev-1" and "need" are not enough
        ("The billing contact can be changed on the Billing page for a Sev-1 incident.",
         "Rollbacks do not need approval from the release owner during a Sev-1 incident.", []),
    ],
)
def test_a_word_the_span_lacks_that_the_evidence_around_it_negates_is_not_affirmed(
    sentence, elsewhere, expected, make_record
):
    assert problems(sentence, CONTACT, make_record, elsewhere) == expected


LIMITS = "Business plan customers can ask support for a higher limit.\nRequests are reviewed by the platform team."


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # "Team" is written as a name only around the span ("the Team plan"), never in it ("the platform team")
        ("Team plan customers can also ask for higher limits.",
         ['[1] says elsewhere "Higher limits are not available on the Team plan."; the sentence affirms '
          '"Team higher limits plan"']),
        ("Business plan customers can ask for higher limits.", []),
        ("The platform team reviews higher limits for Business customers.", []),  # "team" not written as a name
    ],
)
def test_a_name_written_only_around_the_span_counts_as_a_word_the_span_lacks(sentence, expected, make_record):
    assert problems(sentence, LIMITS, make_record, "Higher limits are not available on the Team plan.") == expected


TRIAL_END = "The trial end date is shown at the top of the admin console."


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # "put on hold" is the synonyms table's "pause": the sentence affirms what the evidence denies
        ("An owner can put the trial on hold from the admin console.",
         ['[1] says elsewhere "The trial cannot be paused."; the sentence affirms "pause trial"']),
        ("An owner can see the trial end date in the admin console.", []),
    ],
)
def test_a_phrase_of_the_synonyms_table_is_negated_elsewhere_as_its_word(sentence, expected, make_record):
    assert problems(sentence, TRIAL_END, make_record, "The trial cannot be paused.") == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Guests have to set up 2FA as well once it's required.",
         ['[1] says "Guests are not affected by this setting."; the sentence says the same of it as of the others']),
        ("Members without 2FA have to set it up as well once it is required.", []),
        ("You can also set it up before it is required.", []),  # no subject of its own
    ],
)
def test_a_subject_said_to_share_a_predicate_must_not_be_one_the_span_exempts(sentence, expected, make_record):
    text = ("When 2FA is required, members without 2FA must set it up at their next sign-in.\n"
            "Guests are not affected by this setting.")
    assert problems(sentence, text, make_record) == expected


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("A private folder can go into the widget as well.", False),  # the article is no subject of its own
        ("A public folder can go into the widget as well.", True),  # the span never names it in a negation
    ],
)
def test_an_article_before_the_subject_still_leaves_the_subject_first(sentence, shown, make_record):
    text = "The widget shows folders only, not single files. Private folders cannot be embedded."
    assert (problems(sentence, text, make_record) == []) is shown



@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("Any edits saved after that older version are lost when you restore it.", False),
        ("The restored copy is saved as a new version at the top of the list.", True),
        ("If your version is lost, the restored copy is saved as a new version.", True),  # a condition, no claim
        ("The restored copy is saved as a new version when an edit is lost.", True),
    ],
)
def test_a_word_holding_a_negation_is_judged_by_the_chunks_negating_sentence_beside_a_span_without_one(
    sentence, shown, make_record
):
    text = ("Restoring a version does not delete newer versions.\nClick Restore next to a version to make it current.\n"
            "The restored copy is saved as a new version at the top of the list.\nMembers need edit permission on a "
            "file to restore a version.")
    assert (problems(sentence, text, make_record) == []) is shown


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("If an upload does not succeed, the web app puts a Retry button beside it.", True),  # the condition's
        ("If an upload is slow, the Retry button does not succeed.", False),  # the claim's own
        ("Once an upload is slow the Retry button does not succeed.", False),  # no comma: no condition set apart
    ],
)
def test_a_negation_only_in_the_condition_the_sentence_opens_with_is_no_claim_the_span_must_state(
    sentence, shown, make_record
):
    text = "If an upload fails, the web app shows a Retry button next to it."
    assert (problems(sentence, text, make_record) == []) is shown


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("Admins don't have to wait: they can unlock a member from the admin console.", True),  # the framing's
        ("Admins can unlock a member from the admin console: they do not wait for a ticket.", False),  # the claim's
        ("Admins don't have to wait, they can unlock a member from the admin console.", False),  # no colon
        ("Admins don't wait until 10:00 to unlock a member from the admin console.", False),  # a time closes nothing
    ],
)
def test_a_negation_only_in_an_opening_clause_closed_by_a_colon_is_no_claim_the_span_must_state(
    sentence, shown, make_record
):
    text = "Admins can unlock a member's account early from the admin console."
    assert (problems(sentence, text, make_record) == []) is shown
