"""Follow-up resolution, offline: which questions are follow-ups and what standalone question each becomes."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Turn, resolve_question

CONFIG = PipelineConfig()

REFUNDS = Turn(
    "How long do refunds take?",
    ("Refunds are processed within 5-7 business days.",),
    ("Refund policy\nRefunds\nRefunds are processed within 5-7 business days of the request.",),
)
BUSINESS_PRICE = Turn(
    "How much does the Business plan cost?",
    ("The Business plan costs $20 per user per month.",),
    ("Pricing and plans\nPlans\nThe Business plan costs $20 per user per month. The Team plan costs $12.",),
)
IOS = Turn("Which iOS version does the mobile app need?", ("The iOS app needs iOS 16 or later.",),
           ("Mobile apps\nRequirements\nThe iOS app needs iOS 16 or later. The Android app needs Android 12.",))
SSO = Turn("Does Lumora support single sign-on?", ("Lumora supports single sign-on with SAML.",),
           ("Security\nSingle sign-on\nLumora supports single sign-on with SAML on the Business plan.",))
UPGRADE = Turn("Can I upgrade from Team to Business at any time?", ("You can upgrade at any time.",),
               ("Billing\nChanging plans\nYou can upgrade at any time; a downgrade takes effect next month.",))
SHARE_LINK = Turn(
    "How do I create a share link?",
    ("Click Share and choose Create link.",),
    ("Share links\nCreating a link\nClick Share and choose Create link. A share link can expire.",),
)
RESTORE = Turn(
    "How do I restore a deleted file?",
    ("Open the trash and click Restore.",),
    ("Trash and file recovery\nRestoring\nOpen the trash, select the deleted files and click Restore. "
     "The trash keeps deleted files for 30 days.",),
)
CAMERA = Turn("What are camera uploads?", ("Camera uploads copy new photos to Lumora.",),
              ("Mobile apps\nCamera uploads\nCamera uploads copy new photos to Lumora.",))
TWO_FACTOR = Turn(
    "How do I turn on two-factor authentication?",
    ("Click Turn on two-factor authentication.",),
    ("Two-factor authentication\nTurning it on\nClick Turn on two-factor authentication. Enter the six-digit codes "
     "from your app. The codes change every 30 seconds.",),
)
LOST_COMPUTER = Turn("Can I sign out a lost computer remotely?", ("Yes, from Devices.",),
                     ("Desktop sync client\nDevices\nYou can sign out a lost computer from Devices.",))


def resolve(question: str, *history: Turn) -> str:
    return resolve_question(question, history, config=CONFIG).question


@pytest.mark.parametrize(
    ("history", "question", "resolved"),
    [
        ((REFUNDS,), "and for digital goods?", "How long do refunds take for digital goods?"),
        ((BUSINESS_PRICE,), "what about the Team plan?", "How much does the Team plan cost?"),
        ((IOS,), "And Android?", "Which Android version does the mobile app need?"),
        ((SSO,), "on which plan?", "On which plan does Lumora support single sign-on?"),
        ((UPGRADE,), "and downgrade?", "Can I downgrade from Team to Business at any time?"),
        ((LOST_COMPUTER,), "is that the same on mobile?", "Can I sign out a lost computer remotely on mobile?"),
    ],
)
def test_a_fragment_is_rewritten_into_the_previous_question(history, question, resolved):
    resolution = resolve_question(question, history, config=CONFIG)

    assert resolution.resolved is True
    assert resolution.question == resolved
    assert resolution.note


@pytest.mark.parametrize(
    ("history", "question", "resolved"),
    [
        ((SHARE_LINK,), "can it be protected with a password?", "Can a share link be protected with a password?"),
        ((CAMERA,), "do they work over mobile data?", "Do camera uploads work over mobile data?"),
        ((RESTORE,), "how long does it stay there?", "How long does a deleted file stay in the trash?"),
        ((TWO_FACTOR,), "how long are the codes valid?", "How long are the two-factor authentication codes valid?"),
    ],
)
def test_a_pronoun_or_definite_noun_with_no_antecedent_takes_the_previous_topic(history, question, resolved):
    assert resolve(question, *history) == resolved


def test_a_pronoun_takes_a_phrase_of_its_own_number():
    history = (Turn("Can I invite guests to my workspace?", ("Admins can invite guests.",),
                    ("Workspaces\nGuests\nAdmins can invite guests to a workspace.",)),)

    assert resolve("are they charged?", *history) == "Are guests charged?"


def test_the_topic_is_looked_for_in_the_turn_before_the_last_too():
    history = (
        Turn("How long are versions kept on the Team plan?", ("The Team plan keeps versions for 45 days.",),
             ("Version history\nRetention\nThe Team plan keeps versions for 45 days.",)),
    )

    assert resolve("how do I restore one?", *history) == "How do I restore a version on the Team plan?"


def test_a_verb_between_a_noun_and_an_article_is_not_part_of_the_topic():
    history = (Turn("How many failed sign-in attempts lock an account?", ("An account is locked after 5 attempts.",),
                    ("Passwords\nFailed sign-in attempts\nAn account is locked after 5 failed sign-in attempts.",)),)

    assert resolve("how long until it unlocks?", *history) == "How long until an account unlocks?"


def test_things_keep_the_place_the_previous_question_put_them_in():
    history = (Turn("How long are deleted files kept in the trash?", ("Deleted files are kept for 30 days.",),
                    ("Trash\nHow long files stay\nDeleted files are kept in the trash for 30 days.",)),)

    assert resolve("do they count toward storage?", *history) == "Do deleted files in the trash count toward storage?"


def test_it_after_a_which_question_with_no_singular_phrase_is_the_thing_asked_for():
    history = (Turn("Which currencies are invoices issued in?"),)  # refused: no answer, no passages

    assert resolve("can I change it later?", *history) == "Can I change the currency later?"


def test_a_pronoun_takes_the_phrase_the_passages_put_next_to_its_verb_even_from_an_older_turn():
    history = (
        Turn("How long is the free trial?", ("The free trial lasts 14 days.",),
             ("Free trial\nLength\nThe free trial lasts 14 days. The trial end date is shown in the console.",)),
        Turn("Is a credit card needed?"),
    )

    assert resolve("what happens when it ends?", *history) == "What happens when the free trial ends?"


def test_a_refused_turn_does_not_move_the_conversation_on_and_an_answered_one_does():
    trial = Turn("How long is the free trial?", ("The free trial lasts 14 days.",),
                 ("Free trial\nLength\nThe free trial lasts 14 days.",))
    card = ("Payment details\nNo credit card is required to start the free trial.",)

    assert resolve("is it refundable?", trial, Turn("Is a credit card needed?")) == "Is the free trial refundable?"
    assert resolve("is it refundable?", trial, Turn("Is a credit card needed?", card[1:] or card, card)) == (
        "Is a credit card refundable?")


def test_how_many_with_no_noun_takes_the_topic_and_how_much_only_before_a_subject():
    codes = Turn("What are backup codes for two-factor authentication?", ("Each user receives 10 backup codes.",),
                 ("Two-factor authentication\nBackup codes\nEach user receives 10 backup codes.",))

    assert resolve("how many do I get?", codes) == "How many backup codes do I get?"
    assert resolve("how much do I get?", codes) == "How much backup codes do I get?"


def test_a_definite_noun_takes_the_words_the_passages_put_before_it_from_the_previous_question():
    history = (Turn("How do I reset a forgotten password?", ("Lumora sends a reset link.",),
                    ("Passwords\nResetting\nLumora sends a reset link. Password reset links expire after one hour.",)),)

    assert resolve("when does the link expire?", *history) == "When does the password reset link expire?"


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ((REFUNDS,), "How many members can the Team plan have?"),
        ((REFUNDS,), "Who can request a refund?"),
        ((BUSINESS_PRICE,), "How long are deleted files kept in the trash?"),
        ((CAMERA,), "Is it possible to pay invoices by bank transfer?"),
        ((REFUNDS,), "And how do I open a support ticket from the web app?"),
        ((BUSINESS_PRICE,), "What about the storage included in a trial workspace?"),
        ((REFUNDS,), "Is there a limit on refunds?"),
        ((SHARE_LINK,), "Can more than one person edit a file?"),
        ((), "Is that the same on mobile?"),
        ((SHARE_LINK,), "How much does annual billing save?"),  # "how much" is an amount on its own
        ((CAMERA,), "How much is the Team plan per user each month?"),
        ((Turn("How long is the free trial?", ("The free trial lasts 14 days.",),
               ("Free trial\nThe free trial lasts 14 days.",)),), "How long is the trial period?"),
    ],
)
def test_a_standalone_question_comes_back_as_the_very_same_string(history, question):
    resolution = resolve_question(question, history, config=CONFIG)

    assert resolution.resolved is False
    assert resolution.question is question


@pytest.mark.parametrize(
    "question",
    [
        "If I delete a file, can I restore it?",
        "Which files can I restore after I delete them?",
        "Does the trash keep a file that I deleted?",
    ],
)
def test_a_question_holding_its_own_antecedent_is_untouched(question):
    assert resolve_question(question, (RESTORE,), config=CONFIG).question is question


def test_without_history_nothing_is_resolved():
    resolution = resolve_question("and for digital goods?", (), config=CONFIG)

    assert resolution.resolved is False and resolution.question == "and for digital goods?"


def test_a_chain_of_follow_ups_builds_on_the_resolved_question():
    first = resolve("and for digital goods?", REFUNDS)
    second = resolve("and for gift cards?", REFUNDS, Turn(first))

    assert second == "How long do refunds take for gift cards?"


FRAGMENT_WORDS = ["and", "what", "about", "it", "them", "one", "there", "that", "the", "for", "on", "how", "many",
                  "which", "plan", "Team", "is", "same", "if", "I", "?", "links", "-", "'s", "Business"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(FRAGMENT_WORDS), max_size=8).map(" ".join),
    st.lists(st.text(max_size=40) | st.lists(st.sampled_from(FRAGMENT_WORDS), max_size=8).map(" ".join), max_size=3),
)
def test_any_question_after_any_history_resolves_without_error_into_one_question(question, previous):
    history = tuple(Turn(text, (text,), (f"{text}\n{text}",)) for text in previous)

    resolution = resolve_question(question, history, config=CONFIG)

    assert resolution.question is question or (resolution.resolved and resolution.question.endswith("?"))
    assert "\n" not in resolution.question or resolution.question is question
