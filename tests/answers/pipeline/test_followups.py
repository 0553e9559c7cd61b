"""Follow-up resolution, offline: which questions are follow-ups and what standalone question each becomes."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Turn, resolve_question
from answers.pipeline.followups.verb_phrases import gerund_of

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


def test_after_a_refused_turn_a_pronoun_is_about_what_it_asked_unless_an_older_phrase_acts_with_its_verb():
    price = Turn("What does the Business plan cost?", ("The Business plan costs $25 per user per month.",),
                 ("Lumora pricing and plans\nBusiness plan\nThe Business plan costs $25 per user per month.",))
    trial = Turn("How long is the free trial?", ("The free trial lasts 14 days.",),
                 ("Free trial\nLength\nThe free trial lasts 14 days. The trial end date is shown at the top.",))

    assert "discount" in resolve("how do I apply for it?", price, Turn("Is there a discount for nonprofits?")).lower()
    assert resolve("is it refundable?", trial, Turn("Is a credit card needed?")) == "Is a credit card refundable?"
    # "it ends": the passages put the trial next to "end", so the older phrase still wins.
    assert resolve("what happens when it ends?", trial, Turn("Is a credit card needed?")) == (
        "What happens when the free trial ends?")


def test_an_infinitive_after_what_is_asked_is_no_topic():
    limit = Turn("What happens when I exceed the API rate limit?", ("The API returns status code 429.",),
                 ("API rate limits\nWhen the limit is reached\nThe API returns status code 429.",))

    assert "header" in resolve("how many seconds does it give?", limit, Turn("Which header says how long to wait?"))


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


INVITE = Turn("How do I invite my team?", ("Open the Members page in the admin console and click Invite.",),
              ("Invite your team\nOpen the Members page in the admin console and click Invite.",))


@pytest.mark.parametrize(
    "question",
    [
        "What about guests, are they charged as users?",
        "What about the Business plan, does it include phone support?",
        "what about guests, which files can they see?",
    ],
)
def test_what_about_a_phrase_then_a_question_of_its_own_after_a_comma_is_untouched(question):
    resolution = resolve_question(question, (INVITE,), config=CONFIG)

    assert resolution.question is question


def test_what_about_a_phrase_with_no_question_after_it_is_still_a_follow_up():
    assert "guests" in resolve("what about guests?", INVITE).lower()
    assert resolve("what about guests?", INVITE) != "what about guests?"


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


# The rules found on the second and third dev batches of the follow-up table (issue 18).


def turn(question: str, title: str, *sentences: str) -> Turn:
    """A turn answered with its first sentence, citing a passage of all of them under a title."""
    return Turn(question, sentences[:1], (f"{title}\n{' '.join(sentences)}",))


VERSIONS = turn("How long does the Team plan keep old versions?", "Version history\nHow long versions are kept",
                "The Team plan keeps version history for 45 days.", "The Business plan keeps it for 180 days.")
EMAIL = turn("Is email support available in French?", "Support hours\nLanguages",
             "Email support is offered in English, German, French and Spanish.")
FACE = turn("Can I lock the mobile app with Face ID?", "Mobile apps\nSecurity on mobile",
            "The mobile apps can be locked with a passcode, Face ID or fingerprint.")
WEB = turn("What's the largest file I can upload through the web app?", "Web app release notes\nLarger uploads",
           "The upload limit for a single file in the web app is 200 MB.")
RESET = turn("How long do password reset links last?", "Password requirements\nResetting a forgotten password",
             "Password reset links expire after one hour.", "Each reset link can be used only once.")
BACKUP = turn("What are backup codes?", "Two-factor authentication\nBackup codes",
              "Each user receives 10 backup codes when 2FA is turned on.",
              "Users can create a new set of backup codes.")
TRASH = turn("How do I empty the trash?", "Trash and file recovery\nEmptying the trash",
             "Members can empty their own trash at any time.")
INVOICES = turn("Who can see invoices?", "Billing and invoices",
                "Only the workspace owner and billing admins can see invoices.", "Past invoices can be downloaded.")
SERVICE = turn("What are service accounts?", "API authentication\nService accounts",
               "Business plan workspaces can create service accounts.", "Service accounts are managed by admins.")
CENTRES = turn("Which data centres does Lumora use?", "Data centres\nWhere your data is stored",
               "Lumora stores customer data in data centres in Frankfurt and Oregon.")
TOKENS = turn("What are personal access tokens?", "API authentication\nToken lifetime",
              "Personal access tokens expire after 120 days.", "A token can be revoked.")
HOURS = turn("What are the support hours?", "Support hours",
             "Support is staffed Monday to Friday from 08:00 to 20:00.", "Support is closed on weekends.")
CODES = turn("How many backup codes do I get?", "Two-factor authentication\nBackup codes",
             "Each user receives 10 backup codes.")
MONTHLY = turn("How long do I have to ask for a refund on a monthly plan?", "Refund policy\nRefund window",
               "Refund requests must be submitted within 21 days of the charge.")
MACOS = turn("Which macOS version does the desktop app need?", "Desktop sync client\nSupported systems",
             "The desktop app runs on macOS 13 or later.", "The desktop app runs on Windows 10 or later.")
API = turn("How many requests per minute does the API allow?", "API rate limits\nThe request limit",
           "The API rate limit is 600 requests per minute for each workspace.")
PASSWORDS = turn("How are passwords stored?", "Password requirements\nPassword storage",
                 "Passwords are stored as salted hashes.", "Lumora support staff cannot see your password.")
PASSCODE = turn("Can I lock the mobile apps with a passcode?", "Mobile apps\nSecurity on mobile",
                "The mobile apps can be locked with a passcode.",
                "Admins can require a passcode on every mobile device.")


@pytest.mark.parametrize(
    ("history", "question", "resolved"),
    [
        ((VERSIONS,), "Business too?", "How long does the Business plan keep old versions?"),
        ((EMAIL,), "German as well?", "Is email support available in German?"),
        ((MACOS,), "Windows?", "Which Windows version does the desktop app need?"),
        ((API,), "same for bulk endpoints?", "How many requests per minute does the API allow for bulk endpoints?"),
        ((VERSIONS,), "same question for the Business plan", "How long does the Business plan keep old versions?"),
        ((API,), "the same thing for bulk endpoints?",
         "How many requests per minute does the API allow for bulk endpoints?"),
        ((WEB,), "through the desktop app?", "What's the largest file I can upload through the desktop app?"),
        ((MONTHLY,), "and on an annual one?", "How long do I have to ask for a refund on an annual plan?"),
    ],
)
def test_a_case_of_the_previous_question_with_too_bare_or_through_or_an_adjective_and_one(history, question, resolved):
    assert resolve(question, *history) == resolved


def test_a_standalone_question_ending_in_too_is_left_alone():
    assert resolve("Are taxes refunded too?", REFUNDS) == "Are taxes refunded too?"


def test_a_clause_that_with_a_predicate_is_the_previous_question_in_a_new_case_and_keeps_its_names():
    # "on Android" is no case of "with Face ID": the name another preposition governs stays
    assert resolve("is that available on Android too?", FACE) == "Can I lock the mobile app with Face ID on Android?"


def test_a_pronoun_does_not_stand_for_a_noun_of_its_own_clause_but_may_for_one_of_an_earlier_clause():
    assert resolve("can I put a password on it?", SHARE_LINK) == "Can I put a password on a share link?"
    assert resolve("if I delete a file, can I restore it?", SHARE_LINK) == "if I delete a file, can I restore it?"


GUESTS_TRASH = Turn("Can guests open the trash?", ("Guests cannot open the Trash view.",),
                    ("Trash and file recovery\nWho can restore files\nGuests cannot open the Trash view.",))


def test_a_plural_pronoun_in_a_relative_clause_may_name_a_noun_of_the_clause_it_hangs_on_but_not_that_noun():
    question = "Can guests see files that are not shared with them?"

    assert resolve_question(question, (GUESTS_TRASH,), config=CONFIG).question is question
    assert resolve("Can I see the files that are shared with them?", GUESTS_TRASH) == (
        "Can I see the files that are shared with guests?"
    )
    assert resolve("can I restore files that I deleted from it?", GUESTS_TRASH) == (
        "Can I restore files that I deleted from the trash?"
    )


DARK_MODE = Turn("How do I turn on dark mode?", ("Each member can choose dark mode in Account settings.",),
                 ("Web app release notes 5.0\nDark mode\nEach member can choose dark mode in Account settings.",))


def test_a_possessive_after_its_verb_names_the_subject_of_its_clause_when_of_its_number():
    question = "Where does the desktop app keep its synced folder?"

    assert resolve_question(question, (DARK_MODE,), config=CONFIG).question is question
    # "I" is no antecedent of "its", nor a plural subject: the possessive still points to the previous topic
    assert resolve("how do I change its expiry?", SHARE_LINK) == "How do I change a share link's expiry?"
    assert resolve("can admins change its expiry?", SHARE_LINK) == "Can admins change a share link's expiry?"


REFUND_WINDOW = Turn("How long do we have to ask for a refund?",
                     ("Refund requests must be submitted within 21 days of the charge.",),
                     ("Refund policy\nRefund window\nRefund requests must be submitted within 21 days of the charge.",))


def test_a_possessive_after_a_passive_participle_names_the_subject_before_it_when_of_its_number():
    # A possessive, unlike "it", may name its own clause's subject: the question names it before the pronoun
    question = "Is an annual plan cancelled in its first month fully refunded?"

    assert resolve_question(question, (REFUND_WINDOW,), config=CONFIG).question is question
    # nothing of its number before the participle: it still points to the previous topic
    assert resolve("are admins warned ahead of its expiry?", SHARE_LINK) == (
        "Are admins warned ahead of a share link's expiry?"
    )


TURN_OFF_LINK = Turn("How do I turn off a share link?", ("Turning off a link takes effect immediately.",),
                     ("Share links\nTurning off a link\nThe creator of a link can turn it off at any time.",))


def test_it_or_that_as_the_subject_of_what_happens_to_an_act_is_the_act_the_previous_question_asked_as_i_or_we():
    assert resolve("does it happen right away?", UPGRADE) == (
        "Does upgrading from Team to Business at any time happen right away?"
    )
    assert resolve("when would that kick in?", UPGRADE) == (
        "When would upgrading from Team to Business at any time kick in?"
    )
    assert resolve("how soon does it take effect?", TURN_OFF_LINK) == (
        "How soon does turning off a share link take effect?"
    )
    # a thing's predicate is no act's: "it" is still the topic
    assert resolve("does it expire?", SHARE_LINK) == "Does a share link expire?"


REPORT = Turn("Can I download a report of active share links?", ("Business plan admins can download a report.",),
              ("Share links\nTracking link activity\nBusiness plan admins can download a report.",))
MEMBERS_RESTORE = Turn("Can members restore files someone else deleted?",
                       ("Every member can restore the files they deleted themselves.",),
                       ("Trash and file recovery\nWho can restore files\nWorkspace admins can restore any file.",))
WHO_RESTORES = Turn("Who can restore files from the trash?", ("Workspace admins can restore files.",),
                    ("Trash and file recovery\nWho can restore files\nWorkspace admins can restore files.",))


def test_a_modal_with_a_subject_and_no_verb_takes_the_previous_verb_phrase():
    assert resolve("who can?", REPORT) == "Who can download a report of active share links?"
    assert resolve("can workspace admins?", MEMBERS_RESTORE) == (
        "Can workspace admins restore files someone else deleted?"
    )
    assert resolve("a guest, can one?", WHO_RESTORES) == "Can a guest restore files from the trash?"
    # a modal question with a verb of its own is no fragment
    for question in ("Can guests open the trash?", "Can guests comment?"):
        assert resolve_question(question, (GUESTS_TRASH,), config=CONFIG).question is question


UPLOAD_LIMIT = Turn("What is the upload limit for one file in the web app?",
                    ("The upload limit for a single file in the web app is 100 MB.",),
                    ("Upload limits\nSingle file limit\nThe upload limit for a single file in the web app is 100 MB.",))


def test_a_fragment_closing_with_instead_is_a_case_of_the_previous_question():
    assert resolve("with the desktop sync client instead?", UPLOAD_LIMIT) == (
        "What is the upload limit for one file in the web app with the desktop sync client?"
    )
    question = "Can I use the desktop app instead?"  # a question of its own
    assert resolve_question(question, (UPLOAD_LIMIT,), config=CONFIG).question is question


TRIAL_ENDS = Turn("What happens to a workspace when the trial ends?", ("The workspace becomes read-only.",),
                  ("Free trial\nWhen the trial ends\nWhen the trial ends, the workspace becomes read-only.",))
LOST_2FA = Turn("What should I do if I lose my phone?", ("Sign in with a backup code.",),
                ("Two-factor authentication\nLosing access\nIf you lose your phone, sign in with a backup code.",))


def test_and_when_or_if_with_a_clause_of_its_own_takes_the_place_of_the_previous_questions_clause():
    assert resolve("and when its storage quota is full?", TRIAL_ENDS) == (
        "What happens to a workspace when its storage quota is full?"
    )
    # a question of its own, or a condition on the speaker, is not a clause in place of the previous one
    assert resolve("and when does it end?", TRIAL_ENDS) != "What happens to a workspace when does it end?"
    assert "lose my phone" in resolve("and if I'm the owner?", LOST_2FA)


LOCKED = Turn("After how many failed attempts is an account locked?", ("An account is locked after 5 attempts.",),
              ("Password requirements\nFailed sign-in attempts\nAn account is locked after 5 failed attempts.",))
EXTEND = Turn("Can I extend my free trial?", ("A trial can be extended once by contacting the sales team.",),
              ("Free trial\nExtending a trial\nA trial can be extended once by contacting the sales team.",))


def test_it_or_that_after_about_is_the_previous_situation_asked_as_i_or_we_or_in_the_passive():
    assert resolve("who gets told about it?", LOCKED) == "Who gets told about an account locked?"
    assert resolve("who do I talk to about it?", EXTEND) == "Who do I talk to about extending my free trial?"
    # another preposition, or a previous question of another shape, keeps the topic
    assert resolve("can I put a password on it?", SHARE_LINK) == "Can I put a password on a share link?"
    assert "about" in resolve("what else should I know about it?", BUSINESS_PRICE)
    assert "Business plan" in resolve("what else should I know about it?", BUSINESS_PRICE)


RESET_LINKS = Turn("How long do password reset links last?", ("Password reset links expire after one hour.",),
                   ("Password requirements\nResetting a forgotten password\nPassword reset links expire after one "
                    "hour. Each reset link can be used only once.",))


def test_each_one_before_a_word_is_each_of_the_topic_not_a_count():
    assert resolve("is each one single use?", RESET_LINKS) == "Is each password reset link single use?"
    question = "Can I buy one extra storage block?"  # "one" before its noun is a count
    assert resolve_question(question, (RESET_LINKS,), config=CONFIG).question is question


def test_the_word_right_before_a_pronoun_is_its_verb_and_who_with_an_auxiliary_is_a_subject():
    assert resolve("who manages them?", SERVICE) == "Who manages service accounts?"
    assert resolve("where can I download them?", INVOICES) == "Where can I download invoices?"  # not "see invoices"


@pytest.mark.parametrize(
    ("history", "question", "resolved"),
    [
        ((RESET,), "can I use one twice?", "Can I use a password reset link twice?"),  # an adverb, not "one" noun
        ((BACKUP,), "where can I make new ones?", "Where can I make new backup codes?"),
        ((CODES,), "can I get more?", "Can I get more backup codes?"),
        ((PASSWORDS,), "can support staff see mine?", "Can support staff see my passwords?"),
    ],
)
def test_one_ones_more_and_mine_take_the_topic(history, question, resolved):
    assert resolve(question, *history) == resolved


def test_it_takes_a_plural_topic_in_the_singular_only_when_the_texts_write_it_so():
    assert resolve("can I revoke it?", TOKENS) == "Can I revoke a personal access token?"  # "A token can be revoked"
    assert resolve("is it open on weekends?", HOURS) == "Is the support open on weekends?"  # never "support hour"


def test_them_takes_the_two_word_noun_a_which_question_asks_for():
    assert resolve("do both of them have backup power?", CENTRES) == "Do both of the data centres have backup power?"


def test_that_before_a_closing_adjective_is_a_pronoun_and_a_relative_that_is_left_alone():
    assert resolve_question("can admins make that mandatory?", (PASSCODE,), config=CONFIG).resolved
    assert resolve("Which files that are shared can I restore?", TRASH) == "Which files that are shared can I restore?"


def test_the_topic_another_recent_question_holds_wins_over_a_passing_object():
    put = Turn("Can I put a password on a share link?", ("Share links can be protected with a password.",),
               ("Share links\nProtecting a link\nShare links can be protected with a password.",))

    assert resolve("and how long does it last?", SHARE_LINK, put) == "How long does a share link last?"


def test_the_x_one_names_the_head_noun_each_takes_the_passages_modifiers_and_after_that_is_a_time():
    frankfurt = turn("Does the Frankfurt data centre have backup generators?", "Data centres\nPhysical security",
                     "Both data centres have backup power generators.")
    scopes = turn("What does the files.read scope allow?", "API authentication\nScopes",
                  "The files.read scope allows reading files and folders.")
    webhooks = turn("Where are webhooks configured?", "API authentication\nWebhooks",
                    "Webhooks are configured on the Developer page.",
                    "Each webhook request is signed with HMAC-SHA256.")

    assert resolve("the Oregon one?", frankfurt) == "Does the Oregon data centre have backup generators?"
    assert resolve("and the files.write one?", scopes) == "What does the files.write scope allow?"
    assert resolve("how is each request signed?", webhooks) == "How is each webhook request signed?"
    assert resolve("can support recover them after that?", TRASH).endswith("after that?")


def test_do_that_is_the_previous_verb_phrase_and_does_that_take_is_not():
    pause = turn("Can I pause syncing?", "Desktop sync client\nPausing sync", "You can pause syncing in the tray.")
    restore = turn("Can I restore a deleted file?", "Trash\nRestoring a file", "Open the Trash view and click Restore.")

    assert resolve("how do I do that?", pause) == "How do I pause syncing?"
    assert resolve("who can do this?", restore) == "Who can restore a deleted file?"
    assert resolve("can admins stop members from doing that?", TRASH) == (
        "Can admins stop members from emptying the trash?")
    assert "does that take" not in resolve("how long does that take?", restore).lower()


def test_a_case_given_as_applying_to_someone_or_as_a_condition_on_the_speaker():
    require = turn("Can admins require two-factor authentication?", "Two-factor authentication\nRequiring 2FA",
                   "Admins can require two-factor authentication for every member.")
    business = turn("How much storage does the Business plan include?", "Storage quotas\nStorage per plan",
                    "The Business plan includes 5 TB of storage per user.")

    expected = "Can admins require two-factor authentication for guests?"
    assert resolve("does that apply to guests too?", require) == expected
    assert resolve("does the same apply to guests?", require) == expected
    assert resolve("and if I'm on the Team plan?", business) == "How much storage does the Team plan include?"


def test_is_it_with_an_adjective_and_nothing_after_refers_and_is_it_possible_to_does_not():
    assert resolve("is it free?", TOKENS) == "Is a personal access token free?"
    assert resolve("is it possible to revoke a token?", TOKENS) == "is it possible to revoke a token?"


def test_that_as_an_object_stands_for_the_previous_verb_phrase_as_a_gerund():
    passcode = turn("Can I lock the mobile apps with a passcode?", "Mobile apps\nSecurity on mobile",
                    "The mobile apps can be locked with a passcode.", "Admins can require a passcode.")
    who = turn("Who can restore files from the trash?", "Trash and file recovery\nWho can restore files",
               "Workspace admins can restore files deleted by any member.")
    expiry = turn("When do share links expire?", "Share links\nLink expiry", "Share links expire after 7 days.")

    assert resolve("can an admin turn that off?", TRASH) == "Can an admin turn emptying the trash off?"
    assert resolve("can admins make that mandatory?", passcode) == (
        "Can admins make locking the mobile apps with a passcode mandatory?")
    assert resolve("can guests do that?", who) == "Can guests restore files from the trash?"
    assert resolve("can guests do that for one folder?", who) == (
        "Can guests restore files from the trash for one folder?")
    # With no verb phrase of "I" or "who" to stand for, "that" is a thing, as before.
    assert "share link" in resolve("can I change that?", expiry).lower()
    # A subject "that" after an auxiliary is no clause object.
    assert "emptying" not in resolve("how long does that take?", TRASH).lower()


@pytest.mark.parametrize(("verb", "gerund"), [("empty", "emptying"), ("lock", "locking"), ("stop", "stopping"),
                                              ("change", "changing"), ("see", "seeing"), ("open", "opening")])
def test_a_verb_becomes_a_gerund_by_its_spelling(verb, gerund):
    assert gerund_of(verb) == gerund


def test_a_question_with_no_topic_of_its_own_takes_the_previous_one():
    pause = turn("Can I pause syncing?", "Desktop sync client\nPausing sync", "You can pause syncing in the tray.")
    key = turn("How do I register a security key?", "Two-factor authentication\nSecurity keys",
               "Security keys use the FIDO2 standard.")
    card = turn("What happens when a card payment fails?", "Billing and invoices\nPayment terms",
                "Lumora tries to charge the card again during the following week.")

    assert resolve("how do I resume?", pause) == "How do I resume syncing?"
    assert resolve("which standard is used?", key) == "Which standard is used for registering a security key?"
    assert "card payment" in resolve("how many retries?", card)


@pytest.mark.parametrize("question", ["Can I pay in euros?", "Who can request a refund?", "Which plan is cheaper?",
                                      "How do I sign in?", "What happens?"])
def test_a_short_question_with_a_topic_of_its_own_or_no_content_is_left_alone(question):
    invoices = turn("When are invoices issued?", "Billing and invoices\nInvoice schedule",
                    "Invoices are issued on the 1st of each month.", "Invoices are issued in US dollars or euros.")

    assert resolve(question, invoices) == question


def test_after_a_which_question_it_and_how_many_are_about_the_noun_it_asked_for():
    shortcut = turn("Which shortcut opens quick search?", "Keyboard shortcuts FAQ\nWhich shortcut opens search?",
                    "Press Ctrl+K to open quick search on Windows and Linux.")
    currencies = turn("Which currencies are invoices issued in?", "Billing and invoices\nCurrency",
                      "Invoices are issued in US dollars or euros.")
    lockout = turn("How many failed sign-in attempts lock an account?", "Password requirements\nFailed sign-in",
                   "An account is locked after 5 failed sign-in attempts in a row.")

    assert resolve("can I change it?", shortcut) == "Can I change the shortcut?"
    assert "currencies" in resolve("how many are there?", currencies)
    # "failed" (a participle) and "happens" (a light verb) are asked for by no question
    assert "account" in resolve("how long until it unlocks?", lockout)


def test_a_number_fragment_stands_for_the_previous_questions_number():
    credit = turn("How much is the service credit when uptime falls below 99.9%?", "Service level agreement\nCredits",
                  "Uptime below 99.9% gives a 10% credit.", "Uptime below 99% gives a 25% credit.")

    assert resolve("and below 99%?", credit) == "How much is the service credit when uptime falls below 99%?"
    assert resolve("and 95%?", credit) == "How much is the service credit when uptime falls below 95%?"


def test_one_before_a_verb_is_one_of_the_topic():
    codes = turn("How long are two-factor codes valid?", "Two-factor authentication\nHow codes work",
                 "Two-factor codes are valid for 30 seconds.", "A new code appears when the old one expires.")

    assert resolve("what happens when one expires?", codes) == "What happens when a two-factor code expires?"


def test_what_if_with_a_definite_noun_takes_the_words_the_passages_put_before_it():
    reset = turn("How do I reset a forgotten password?", "Password requirements\nResetting a forgotten password",
                 "Click Forgot password on the sign-in page.", "Password reset links expire after one hour.")

    assert resolve("what if the link has expired?", reset) == "What if the password reset link has expired?"


def test_there_after_a_where_question_is_the_place_it_asked_for():
    settings_page = turn("Where do I find the workspace settings page?", "Getting started\nTransferring ownership",
                         "The owner can transfer ownership from the workspace settings page.",
                         "The data region is shown on the workspace settings page.")

    assert resolve("what can I change there?", settings_page) == "What can I change in the workspace settings page?"


def test_it_as_an_object_is_what_the_passages_do_its_verb_to_when_the_question_did_not_name_it():
    lost = turn("What if I lose my phone and my backup codes?", "Two-factor authentication\nLosing access",
                "If you lose your phone, sign in with a backup code.",
                "If you have no backup codes, ask a workspace admin to reset your 2FA.")
    transfer = turn("How do I transfer ownership of a workspace?", "Getting started\nTransferring ownership",
                    "The owner can transfer ownership to an admin.", "The new owner must accept the transfer.")

    assert resolve("who can reset it?", lost) == "Who can reset 2FA?"
    # "the transfer" is what the previous question asked about already: its topic stays
    assert "ownership" in resolve("does the new owner have to accept it?", transfer)


def test_it_is_the_head_of_x_of_y_that_the_passages_put_next_to_its_verb():
    report = Turn("How do I download a report of active share links?",
                  ("Business plan admins can download a report of all active share links.",),
                  ("Share links\nThe report lists the creator and the expiry date.",))

    assert resolve("what does it list?", report) == "What does a report list?"


@pytest.mark.parametrize(
    ("previous", "question", "resolved"),
    [
        ("Can members empty their own trash?", "can guests do that?", "Can guests empty their own trash?"),
        ("Can the owner delete the workspace?", "can admins do that?", "Can admins delete the workspace?"),
    ],
)
def test_do_that_with_a_subject_of_its_own_takes_the_verb_phrase_after_the_previous_questions_subject(
        previous, question, resolved):
    assert resolve(question, Turn(previous)) == resolved


LINK_EXPIRY = Turn(
    "How long do share links last by default?",
    ("Share links expire after 7 days by default.",),
    ("Share links\nShare links\nLink expiry\nShare links expire after 7 days by default. The person who creates a "
     "link can choose a different expiry date.",),
)
INVOICES = Turn(
    "Who can see invoices?",
    ("Only the workspace owner and billing admins can see invoices.",),
    ("Billing and invoices\nOnly the workspace owner and billing admins can see invoices. The billing contact can be "
     "changed on the Billing page.",),
)


def test_a_question_going_on_with_the_previous_passage_gets_its_headings_and_a_complete_one_does_not():
    resolved = resolve_question("who can pick a different date?", [LINK_EXPIRY], config=CONFIG)
    complete = resolve_question("Can admins set a shorter maximum expiry?", [LINK_EXPIRY], config=CONFIG)

    assert (resolved.question, resolved.resolved) == (
        "Who can pick a different date, about link expiry in share links?", True)
    assert (complete.question, complete.resolved) == ("Can admins set a shorter maximum expiry?", False)


def test_they_after_a_who_question_is_whom_its_answer_names():
    resolved = resolve_question("can they change the billing contact?", [INVOICES], config=CONFIG)

    assert resolved.question == "Can the workspace owner and billing admins change the billing contact?"


REVIEWERS = Turn("Who reviews refund requests?", ("Each refund request is reviewed by the Lumora Labs billing team.",),
                 ("Refund policy\nWho can request a refund\nRefund requests are made from the Billing page. "
                  "Each refund request is reviewed by the Lumora Labs billing team.",))
SEE_INVOICES = Turn("Who can see invoices?", ("Only the workspace owner and billing admins can see invoices.",),
                    ("Billing and invoices\nOnly the workspace owner and billing admins can see invoices.\n"
                     "DOWNLOADING INVOICES\nPast invoices can be downloaded as PDF files.",))


@pytest.mark.parametrize(
    ("question", "history", "resolved"),
    [
        ("can I email them?", REVIEWERS, "Can I email the Lumora Labs billing team?"),
        ("how do I reach them?", REVIEWERS, "How do I reach the Lumora Labs billing team?"),
        # "download" is no getting in touch: the thing asked about, not the people
        ("where can I download them?", SEE_INVOICES, "Where can I download invoices?"),
        # the question's own "they" are the people, so "them" is the thing
        ("can they download them as PDF?", SEE_INVOICES,
         "Can the workspace owner and billing admins download invoices as PDF?"),
    ],
)
def test_them_and_their_after_a_who_question_are_its_people_unless_the_texts_do_the_verb_to_the_thing(
        question, history, resolved):
    assert resolve_question(question, [history], config=CONFIG).question == resolved


def test_their_contact_details_after_a_who_question_are_its_peoples():
    resolved = resolve_question("what's their email address?", [REVIEWERS], config=CONFIG).question

    assert "the Lumora Labs billing team's email address" in resolved


TRIAL_MEMBERS = Turn("How many members can a trial workspace invite?",
                     ("Trial workspaces can invite up to 10 members.",),
                     ("Free trial\nWhat the trial includes\nTrial workspaces can invite up to 10 members.",))
TRIAL_EXTEND = Turn("Can the free trial be extended?", ("A trial can be extended once.",),
                    ("Free trial\nExtending a trial\nA trial can be extended once by contacting the sales team.",))


@pytest.mark.parametrize(
    ("turn", "question", "expected"),
    [
        (TRIAL_MEMBERS, "how much storage?", "How much storage can a trial workspace invite?"),
        (TRIAL_EXTEND, "how many times?", "How many times can the free trial be extended?"),
        (TRIAL_EXTEND, "when?", "When can the free trial be extended?"),
    ],
)
def test_a_question_that_is_only_what_it_asks_for_takes_the_previous_predicate(turn, question, expected):
    assert resolve_question(question, [turn], config=CONFIG).question == expected


@pytest.mark.parametrize("question", ["how many members can a Team workspace have?", "which cards are accepted?",
                                      "why does it expire?", "who approves refunds?"])
def test_a_question_with_a_predicate_of_its_own_takes_no_slot(question):
    resolution = resolve_question(question, [TRIAL_EXTEND], config=CONFIG)
    assert not resolution.question.lower().startswith(question.rstrip("?").lower() + " can the free trial")


KEYS = Turn("Can Business plan users register hardware security keys?",
            ("Business plan users can register hardware security keys.",),
            ("Two-factor authentication\nSecurity keys\nBusiness plan users can register hardware security keys.",))


def test_a_three_word_phrase_whose_head_the_previous_question_has_is_a_case_of_it():
    resolution = resolve_question("Team plan users?", [KEYS], config=CONFIG)

    assert resolution.question == "Can Team plan users register hardware security keys?"


def test_a_three_word_phrase_with_a_head_of_its_own_is_left_as_asked():
    assert resolve_question("Android tablet support?", [KEYS], config=CONFIG).question == "Android tablet support?"


PAYMENT = Turn("What happens if a card payment fails?", ("Lumora tries to charge the card again.",),
               ("Billing and invoices\nPayment terms\nIf a card payment fails, Lumora charges the card again.",))


def test_an_adverb_standing_for_the_previous_situation_takes_its_clause():
    resolution = resolve_question("can I still download my files then?", [PAYMENT], config=CONFIG)

    assert resolution.resolved and "if a card payment fails" in resolution.question


@pytest.mark.parametrize("question", ["Is Internet Explorer still supported by the web app?",
                                      "If my card expires, then what happens to my files?"])
def test_still_or_a_then_after_a_clause_of_its_own_is_left_as_asked(question):
    assert resolve_question(question, [PAYMENT], config=CONFIG).question == question


SIGN_IN = Turn("How can Business users sign in without an authenticator app code?",
               ("A security key can replace the authenticator app code at sign-in.",),
               ("Two-factor authentication\nSecurity keys\nBusiness plan users can register hardware security keys. "
                "Security keys use the FIDO2 standard.",))


def test_a_pronoun_takes_the_subject_of_the_cited_sentence_that_holds_the_rest_of_the_question():
    resolution = resolve_question("which standard do they use?", [SIGN_IN], config=CONFIG)

    assert "security keys" in resolution.question.lower()


def test_a_pronoun_whose_topic_a_cited_sentence_covers_keeps_it():
    resolution = resolve_question("can they register security keys?", [SIGN_IN], config=CONFIG)

    assert "business" in resolution.question.lower()


ANNUAL_REFUND = Turn("Can I get a refund if I cancel my annual plan?",
                     ("An annual plan cancelled after its first month receives no refund for the remaining months.",),
                     ("Refund policy\nRefund window\nAn annual plan cancelled in its first month receives a full "
                      "refund.",))
REQUEST_REFUND = Turn("How do I request a refund?", ("Only the workspace owner can request a refund.",),
                      ("Refund policy\nWho can request a refund\nOnly the workspace owner can request a refund.",))


@pytest.mark.parametrize(
    ("question", "history", "resolved"),
    [
        ("where does the money go?", ANNUAL_REFUND,
         "Where does the money go for getting a refund if I cancel my annual plan?"),
        ("so where does the money go?", ANNUAL_REFUND,
         "So where does the money go for getting a refund if I cancel my annual plan?"),
        ("how long does processing take?", REQUEST_REFUND, "How long does processing take for requesting a refund?"),
    ],
)
def test_a_thin_question_whose_subject_the_previous_turn_never_named_takes_that_turn_for_it(question, history,
                                                                                             resolved):
    assert resolve_question(question, [history], config=CONFIG).question == resolved


@pytest.mark.parametrize(
    "question",
    [
        "How do I empty the trash?",  # asked as "I": the speaker's own action on a thing it names
        "How long is the free trial?",  # a compound subject pins itself down
        "How long is the trial?",  # no do-support: "is" says nothing of what comes after the subject
        "How often does Lumora bill?",  # a name
        "Where does the money go after a refund?",  # more than the subject and its verb
    ],
)
def test_a_question_whose_subject_is_pinned_down_or_which_asks_as_i_is_left_alone(question):
    assert resolve_question(question, [REQUEST_REFUND], config=CONFIG).resolved is False


def test_a_vague_subject_takes_only_a_previous_question_asked_as_i_not_its_topic():
    assert resolve_question("where does the money go?", [REFUNDS], config=CONFIG).resolved is False


PROTECTED_LINK = Turn("Can a share link be protected with a password?",
                      ("Share links can be protected with a password.",),
                      ("Share links\nProtecting a link\nShare links can be protected with a password.",))
LOST_PHONE = Turn("What if I lose my phone with two-factor authentication on?",
                  ("If you lose your phone, sign in with a backup code.",),
                  ("Two-factor authentication\nLosing access\nIf you lose your phone, sign in with a backup code. "
                   "If you have no backup codes, ask a workspace admin to reset your 2FA.",))


def test_a_participle_fragment_takes_the_place_of_the_previous_passives_participle_phrase():
    assert resolve("limited to a number of downloads?", PROTECTED_LINK) == \
        "Can a share link be limited to a number of downloads?"
    # a previous question with no passive gives it no place: left as asked
    assert resolve_question("limited to a number of downloads?", [REFUNDS], config=CONFIG).resolved is False
    # a participle opening a question of its own is no fragment
    assert resolve_question("Protected links, how do I open them?", [PROTECTED_LINK],
                            config=CONFIG).note != "ellipsis: a new participle for the previous passive"


def test_how_many_of_those_counts_the_thing_the_previous_answer_introduced():
    assert resolve("how many of those do I get?", LOST_PHONE) == "How many backup codes do I get?"


@pytest.mark.parametrize(("noun", "plural"), [("code", "codes"), ("box", "boxes"), ("policy", "policies"),
                                               ("key", "keys")])
def test_the_introduced_thing_is_put_in_the_plural_by_the_regular_rules(noun, plural):
    turn = Turn("What do I need?", (f"You need a {noun}.",), ())
    assert resolve("how many of those do I get?", turn) == f"How many {plural} do I get?"


DEFAULT_EXPIRY = Turn("What is the default expiry of a share link?", ("Share links expire after 7 days by default.",),
                      ("Share links\nLink expiry\nShare links expire after 7 days by default.",))


def test_that_after_a_what_is_question_is_the_thing_whose_value_was_asked():
    assert resolve("how do I change that?", DEFAULT_EXPIRY) == "How do I change the default expiry of a share link?"
    assert resolve("can admins shorten that?", DEFAULT_EXPIRY) == \
        "Can admins shorten the default expiry of a share link?"
    # not after a question of another form ("How do I ...?" keeps its verb-phrase reading)
    assert resolve("can an admin turn that off?", Turn("How do I empty the trash?")) == \
        "Can an admin turn emptying the trash off?"


INVOICE_CONTACT = Turn(
    "Who are invoices emailed to?",
    ("Invoices are sent by email to the billing contact.",),
    ("Billing and invoices\nInvoice schedule\nInvoices are issued on the 1st of each month. Invoices are sent by "
     "email to the billing contact.",),
)
MONTHLY_INVOICES = Turn(
    "When are monthly invoices issued?",
    ("Invoices are issued on the 1st of each month.",),
    ("Billing and invoices\nInvoice schedule\nInvoices are issued on the 1st of each month. Annual plans receive one "
     "invoice per year.",),
)
CONFLICTED = Turn(
    "What does a conflicted copy's file name include?",
    ('The second copy has the words "conflicted copy" and the member\'s name in its file name.',),
    ("Desktop sync client\nConflicts\nLumora keeps both copies when a conflict happens. The second copy has the words "
     '"conflicted copy" and the member\'s name in its file name.',),
)

def test_that_before_a_noun_is_the_thing_as_the_previous_answer_named_it():
    assert resolve("can I change that contact?", INVOICE_CONTACT) == "Can I change the billing contact?"
    assert resolve("can I change that?", INVOICE_CONTACT) == "Can I change invoices?"  # no noun: the topic


def test_ones_after_a_modifier_is_the_previous_questions_noun_not_its_closing_participle():
    assert resolve("annual ones?", MONTHLY_INVOICES) == "When are annual invoices issued?"


def test_one_as_the_subject_of_a_passive_is_one_of_the_topic_without_its_possessive():
    assert resolve("when is one created?", CONFLICTED) == "When is a conflicted copy created?"
    question = "Is one invoice issued per year?"
    assert resolve_question(question, (MONTHLY_INVOICES,), config=CONFIG).question is question


def test_them_one_gets_in_touch_with_after_a_who_question_is_whom_its_answer_names():
    assert resolve("how can I get in touch with them?", REVIEWERS) == (
        "How can I get in touch with the Lumora Labs billing team?"
    )


DOWNGRADE = Turn(
    "Can I downgrade from Business to Team?",
    ("A downgrade from Business to Team takes effect at the start of the next billing period.",),
    ("Lumora pricing and plans\nChanging plans\nAn upgrade takes effect immediately.\nA downgrade from Business to "
     "Team takes effect at the start of the next billing period.",),
)
TRANSFER = Turn(
    "How do I transfer ownership of a workspace?",
    ("The owner can transfer ownership to an admin from the workspace settings page.",),
    ("Getting started with Lumora\nTransferring ownership\nThe owner can transfer ownership to an admin from the "
     "workspace settings page. The new owner must accept the transfer before it takes effect.",),
)


def test_it_for_the_act_the_previous_question_asked_as_i_is_that_act_as_the_passages_name_it():
    assert resolve("when does it take effect?", DOWNGRADE) == "When does a downgrade from Business to Team take effect?"
    assert resolve("does the new owner have to accept it?", TRANSFER) == (
        "Does the new owner have to accept the transfer of ownership of a workspace?"
    )
    assert "a downgrade" not in resolve("can I undo it?", DOWNGRADE)  # no sentence names the act with "undo"


TEAM_PRICE = Turn(
    "How much does the Team plan cost per user?",
    ("The Team plan costs $12 per user per month.",),
    ("Lumora pricing and plans\nTeam plan\nThe Team plan costs $12 per user per month.",),
)


def test_the_name_one_is_the_noun_the_name_it_parallels_names_not_the_verb_or_preposition_after_it():
    assert resolve("the Business one?", TEAM_PRICE) == "How much does the Business plan cost per user?"
    assert resolve("the Oregon one?", Turn("Which data centre serves the European data region?")) == (
        "Which data centre serves the Oregon region?"
    )



def test_a_modifier_one_is_the_noun_before_a_closing_adverb_or_a_do_support_verb():
    # "first" closes the run as an adverb; "expire" is the verb closing a do-support question
    assert resolve("the Frankfurt ones?", Turn("Which team takes Oregon incidents first?")) == (
        "Which team takes Frankfurt incidents first?"
    )
    assert resolve("and the backup ones?", Turn("Do the codes expire?")) == "Do the backup codes expire?"
    assert resolve("the Business one?", TEAM_PRICE) == "How much does the Business plan cost per user?"

@pytest.mark.parametrize(
    ("previous", "question", "resolved"),
    [
        ("Is there a Linux version of the desktop app?", "of the mobile app?",
         "Is there a Linux version of the mobile app?"),
        ("What happens to uploads when the storage quota is full?", "to existing files?",
         "What happens to existing files when the storage quota is full?"),
        ("Can Business customers pay by bank transfer?", "customers in India?",
         "Can customers in India pay by bank transfer?"),
        ("Do older file versions count toward storage?", "files in the trash?",
         "Do files in the trash count toward storage?"),
    ],
)
def test_a_verbless_phrase_takes_the_place_of_the_previous_phrase_it_parallels(previous, question, resolved):
    assert resolve(question, Turn(previous)) == resolved


def test_a_phrase_after_of_with_no_such_phrase_before_is_left_as_asked():
    question = "of the mobile app?"
    assert resolve_question(question, (Turn("How long do refunds take?"),), config=CONFIG).question is question


def test_they_after_a_who_question_whose_answer_names_nobody_is_whom_the_cited_passage_names():
    asked = Turn("Who can request a refund?", ("Refund requests are made from the Billing page of the admin console.",),
                 ("Refund policy\nWho can request a refund\nOnly the workspace owner can request a refund. Refund "
                  "requests are made from the Billing page of the admin console.",))

    assert resolve("where do they do that?", asked) == "Where do the workspace owner request a refund?"


def test_it_is_the_phrase_a_passage_sentence_says_the_rest_of_the_question_of():
    accent = Turn("How do I set the accent colour of the embed widget?",
                  ("You can set the accent colour with the data-accent attribute.",),
                  ("Embed widget developer guide\nStyling\nYou can set the accent colour with the data-accent "
                   "attribute. The widget supports light and dark themes.",))

    assert resolve("does it have a dark theme?", accent) == "Does the embed widget have a dark theme?"


def test_they_is_no_phrase_whose_head_the_question_writes_itself():
    reviews = Turn("Which team reviews requests for a higher rate limit?",
                   ("Each request for a higher limit is reviewed by the Lumora Labs platform team.",),
                   ("API rate limits\nHigher limits\nBusiness plan customers can ask support for a higher rate limit. "
                    "Each request for a higher limit is reviewed by the Lumora Labs platform team.",))

    assert "requests take" not in resolve("how long do they take?", reviews)


def test_them_for_a_thing_named_in_the_singular_is_its_plural_when_a_passage_writes_that_and_does_it():
    kit = Turn("How do I order a welcome kit for new members?",
               ("Workspace owners on the Business plan can order a printed welcome kit for new members.",),
               ("Customer community FAQ\nCan I order a printed welcome kit?\nWorkspace owners on the Business plan "
                "can order a printed welcome kit for new members from the admin console. Kits are posted by our "
                "print partner in Rotterdam and arrive within two weeks.",))
    guide = Turn("How do I get help from Lumora?", ("This guide helps a new team set up its workspace.",),
                 ("Getting started\nThis guide helps a new team set up its workspace.",))

    assert resolve("who posts them?", kit) == "Who posts welcome kits?"
    assert "helps" not in resolve("how fast do they reply?", guide)  # "helps a new team" is a verb, not a plural


def test_a_participle_before_the_pronoun_s_clause_is_no_antecedent_of_it():
    currencies = Turn("In which currencies are invoices issued?", ("Invoices are issued in US dollars or euros.",),
                      ("Billing and invoices\nCurrency\nInvoices are issued in US dollars or euros. The currency is "
                       "chosen when the first plan is bought. The currency cannot be changed later.",))
    question = "If I delete a file, can I restore it?"

    assert "currenc" in resolve("once picked, can it be changed?", currencies).lower()
    assert resolve_question(question, (currencies,), config=CONFIG).question is question


def test_a_subject_that_before_its_verb_is_the_act_or_state_the_previous_question_asked_about():
    restore = Turn("Can I restore an older version of a file?", ("Click Restore next to a version.",),
                   ("Version history\nRestoring a version\nRestoring a version does not delete newer versions.",))
    locked = Turn("Is my account locked after five failed sign-in attempts?",
                  ("An account is locked after 5 failed sign-in attempts in a row.",),
                  ("Password requirements\nFailed sign-in attempts\nAn account is locked after 5 failed sign-in "
                   "attempts in a row. A locked account unlocks automatically after 20 minutes.",))
    status = Turn("How do I check whether Lumora is down?", ("Current service status is shown at the status page.",),
                  ("Support hours\nStatus page\nThe status page lists ongoing incidents and planned maintenance.",))

    assert resolve("does that delete the newer ones?", restore).startswith("Does restoring an older version")
    assert "locked" in resolve("how long does that last?", locked)
    assert not resolve("does that page also list planned maintenance?", status).startswith("Does checking")


def test_there_after_a_where_question_is_the_place_its_answer_names():
    tokens = Turn("Where do I create personal access tokens?",
                  ("Personal access tokens are created on the Developer page in Account settings.",),
                  ("API authentication\nCreating a token\nPersonal access tokens are created on the Developer page in "
                   "Account settings. A token is shown only once.",))
    unplaced = Turn("Where do I create personal access tokens?", ("A token is shown only once.",),
                    ("API authentication\nCreating a token\nA token is shown only once.",))

    assert resolve("what else can I configure there?", tokens) == "What else can I configure on the Developer page?"
    assert "Developer" not in resolve("what else can I configure there?", unplaced)
    resent = "Invitations are resent from the Members page and expire soon."
    members = Turn("Where do I resend an invitation?", (resent,), (f"Getting started\nInvite your team\n{resent}",))
    assert resolve("what else can I change there?", members) == "What else can I change from the Members page?"


def test_there_after_another_question_is_the_place_phrase_it_wrote_before_the_passages_key_term():
    phone = Turn("How do I create a share link from my phone?", ("Tap the Share button on any file.",),
                 ("Mobile apps\nSharing from the app\nTap the Share button on any file to create a share link. Admin "
                  "restrictions on share links also apply in the mobile apps. The apps send notifications.",))
    anytime = Turn("Can plans be changed at any time?", ("Plans can be changed at any time from the Billing page.",),
                   ("Free trial\nChoosing a plan\nPlans can be changed at any time from the Billing page. The Billing "
                    "page lists plans.",))

    assert resolve("do admin restrictions apply there too?", phone) == "Do admin restrictions apply from my phone too?"
    assert "at any time" not in resolve("what can I change there?", anytime)  # a time, no place


def test_they_after_an_i_question_is_the_plural_noun_the_passages_make_of_its_verb():
    invite = Turn("How do I invite people to my workspace?", ("Open the Members page and click Invite.",),
                  ("Getting started\nInvite your team\nOpen the Members page and click Invite. Invitations expire "
                   "after 48 hours.",))
    unnamed = Turn("How do I invite people to my workspace?", ("Open the Members page and click Invite.",),
                   ("Getting started\nInvite your team\nOpen the Members page and click Invite.",))

    assert resolve("how long do they stay valid?", invite) == "How long do invitations stay valid?"
    assert "invitations" not in resolve("how long do they stay valid?", unnamed)


def test_a_plural_pronoun_takes_no_long_phrase_put_in_the_plural():
    guests = Turn("Can guests see every file in the workspace?", ("Guests can only see the items shared with them.",),
                  ("Getting started\nRoles\nGuests can only see the items that are shared with them. Guests are free "
                   "and are not charged as users. Shared files appear in their lists.",))

    assert resolve("are they charged?", guests) == "Are guests charged?"


CONFLICT = Turn("What happens when two people edit the same file before it syncs?",
                ("A conflict happens when two people change the same file before syncing.",),
                ("Desktop sync client\nConflicts\nA conflict happens when two people change the same file before "
                 "syncing. Lumora keeps both copies when a conflict happens. The second copy has the words "
                 "\"conflicted copy\" and the member's name in its file name.",))


def test_a_bare_phrase_of_three_terms_is_a_case_of_the_previous_question():
    sso = Turn("Does the Team plan include single sign-on?", ("Single sign-on is on the Business plan.",),
               ("Pricing and plans\nBusiness plan\nSingle sign-on with SAML. Hardware security keys for 2FA.",))

    resolved = resolve("hardware security keys?", sso)
    assert "Team plan" in resolved and "hardware security keys" in resolved
    assert resolve("Which plan has hardware security keys?", sso) == "Which plan has hardware security keys?"


def test_a_fragment_with_a_closing_then_is_a_fragment():
    invite = Turn("How many people can a trial workspace invite?", ("Trial workspaces can invite up to 10 members.",),
                  ("Free trial\nWhat the trial includes\nTrial workspaces can invite up to 10 members. Trial "
                   "workspaces include 40 GB of shared storage.",))

    resolved = resolve("storage, then?", invite)
    assert "trial workspace" in resolved and "storage" in resolved and "then" not in resolved


def test_a_pronoun_after_a_what_happens_question_is_the_situation_the_answer_names():
    assert "a conflict" in resolve("whose name goes on it?", CONFLICT)
    assert resolve("what is the extra one called?", CONFLICT) == "What is the extra conflict called?"
    assert resolve("Can I share one synced folder?", CONFLICT) == "Can I share one synced folder?"


def test_a_subject_they_after_a_modal_is_the_previous_question_s_own_subject():
    block = Turn("Can admins block share links for the whole workspace?",
                 ("Admins can block share links for the whole workspace.",),
                 ("Share links\nRestrictions set by admins\nAdmins can block share links for the whole workspace. "
                  "Admins can limit share links to specific folders.",))

    resolved = resolve("can they do that for just one folder?", block)
    assert resolved.startswith("Can admins block share links") and resolved.endswith("for just one folder?")


def test_a_preposition_and_a_question_word_go_in_front_of_an_auxiliary_first_question():
    resend = Turn("Can an expired invitation be sent again?", ("An expired invitation can be sent again.",),
                  ("Getting started\nInvite your team\nAn expired invitation can be sent again from the Members "
                   "page.",))

    assert resolve("from where?", resend) == "From where can an expired invitation be sent again?"
    assert resolve("for what?", REFUNDS) == "for what?"  # a question word before no auxiliary-first question


def test_that_before_a_preposition_is_no_relative_pronoun_and_stands_for_the_previous_act():
    face_id = Turn("Can I lock the mobile app with Face ID?", ("The mobile apps can be locked with Face ID.",),
                   ("Mobile apps\nSecurity on mobile\nThe mobile apps can be locked with a passcode, Face ID or "
                    "fingerprint. Admins can require a passcode on every mobile device.",))

    assert resolve("can admins force that on everyone?", face_id) == (
        "Can admins force locking the mobile app with Face ID on everyone?")
    assert resolve("Which files that are shared can guests see?", face_id) == (
        "Which files that are shared can guests see?")


def test_those_before_a_noun_is_that_noun_as_the_passages_name_it_with_the_previous_question_s_words():
    offline = Turn("How do I mark a file as available offline?", ("You can mark files as available offline.",),
                   ("Mobile apps\nOffline files\nYou can mark files as available offline. Offline files can be opened "
                    "without an internet connection.",))

    assert resolve("what happens to those files if my phone is signed out?", offline) == (
        "What happens to the offline files if my phone is signed out?")
    assert resolve("Can I see those offline files on my laptop?", offline) == (
        "Can I see those offline files on my laptop?")  # no noun alone after "those"


WHO_CHANGED = Turn("Can I see who changed a file?")  # unanswered: the question alone is the evidence


def test_a_pronoun_in_a_without_clause_may_name_a_noun_of_the_clause_before_it():
    question = "Can I preview an old version without restoring it?"

    assert resolve_question(question, (WHO_CHANGED,), config=CONFIG).question is question
    assert resolve("can I share it without a password?", SHARE_LINK) == "Can I share a share link without a password?"


def test_the_word_right_after_a_subject_who_is_its_verb_and_no_topic():
    assert resolve("can I undo it?", WHO_CHANGED) == "Can I undo a file?"


def test_a_closing_before_or_after_that_is_the_time_of_the_previous_situation():
    quota = turn("What happens when our storage quota is full?", "Storage quotas\nWhen the quota is full",
                 "When the workspace reaches its quota, new uploads are paused.")

    assert resolve("is there any way back after that?", TRASH) == "Is there any way back after emptying the trash?"
    assert resolve("do we get warned before that?", quota) == "Do we get warned before our storage quota is full?"
    assert resolve("is there any way back after that?", BUSINESS_PRICE) == "is there any way back after that?"


def test_a_modifier_s_one_is_the_noun_the_previous_question_modifies_or_the_passages_write_after_that_modifier():
    older = turn("Do older versions count toward storage?", "Storage quotas\nWhat counts toward storage",
                 "Older file versions do not count toward storage.")
    conflict = turn("What happens when two people edit the same file?", "Desktop sync client\nConflicts",
                    "A conflict happens when two people change the same file before syncing.",
                    "The second copy has the words conflicted copy in its file name.")

    assert resolve("the current one?", older) == "Do current version count toward storage?"
    assert resolve("what is the second one called?", conflict) == "What is the second copy called?"


def test_it_as_what_the_passage_does_the_verb_to_with_the_is_that_thing_of_the_topic():
    refund = turn("How long does a refund take?", "Refund policy\nHow long a refund takes",
                  "Refunds are processed within 5-7 business days.",
                  "The processing time starts when the billing team approves the request.")

    assert resolve("who approves it?", refund) == "Who approves the refund request?"


def test_below_and_above_are_prepositions_so_below_a_number_is_a_fragment():
    credit = turn("What service credit do we get if uptime drops below 99.9%?", "Service level agreement\nCredits",
                  "Uptime below 99.9% gives a 10% credit.", "Uptime below 99% gives a 25% credit.")

    assert resolve("below 99%?", credit) == "What service credit do we get if uptime drops below 99%?"


def test_one_right_after_a_modal_before_a_verb_is_a_pronoun_and_before_a_noun_phrase_is_a_number():
    keys = turn("Which standard do hardware security keys use?", "Two-factor authentication\nSecurity keys",
                "Security keys use the FIDO2 standard.", "A security key can replace the authenticator app code.")
    question = "How much does one extra storage block cost?"

    assert resolve("what can one replace at sign-in?", keys) == "What can a security key replace at sign-in?"
    assert resolve_question(question, (keys,), config=CONFIG).question is question


def test_a_superlative_without_its_noun_takes_the_head_of_the_previous_object():
    expiry = turn("How do I set a custom expiry on a share link?", "Share links\nLink expiry",
                  "The person who creates a link can choose a different expiry date.")

    assert resolve("what's the longest I can pick?", expiry) == "What's the longest expiry I can pick?"
    assert resolve("what's the longest expiry I can pick?", expiry) == "what's the longest expiry I can pick?"


def test_that_after_a_what_s_question_is_the_thing_it_asked_the_value_of():
    limit = turn("What's the member limit on the Team plan?", "Pricing and plans\nTeam plan",
                 "The Team plan allows a maximum of 50 members.")

    assert resolve("what if we need more people than that?", limit) == (
        "What if we need more people than the member limit on the Team plan?")


def test_a_compound_the_passages_write_as_head_of_modifiers_is_the_topic_not_its_modifier():
    report = turn("Who can download the share link report?", "Share links\nReports",
                  "Business plan admins can download a report of all active share links.",
                  "A share link can have a password.")

    assert resolve("what's in it?", report) == "What's in the share link report?"


def test_the_subject_of_a_relative_clause_without_that_describes_the_noun_before_it():
    expiry = turn("What is the longest expiry a share link can have?", "Share links\nLink expiry",
                  "The longest allowed link expiry is 365 days.", "A share link can have a password.")

    assert "expiry" in resolve("can admins shorten it?", expiry)


def test_a_pronoun_acted_on_is_not_what_the_passages_only_write_doing_that_verb():
    ticket = turn("How do I open a support ticket?", "Support\nOpening a ticket",
                  "Support tickets can be opened from the Help menu.",
                  "This page explains how quickly Lumora support answers.")

    assert resolve("how long until someone answers it?", ticket) == "How long until someone answers a support ticket?"


def test_an_acting_pronoun_after_a_fronted_object_is_the_previous_subject():
    sla = Turn("What uptime does the SLA promise?")

    assert resolve("does it cover beta features?", sla) == "Does the SLA cover beta features?"


def test_a_longer_question_goes_on_from_the_passage_when_one_sentence_writes_most_of_it():
    selective = turn("What is selective sync?", "Desktop sync client\nSelective sync",
                     "Selective sync lets you choose which folders are stored on your computer.",
                     "Online-only folders still appear in the Lumora web app.")
    question = "do the unselected folders still show in the web app?"

    assert resolve(question, selective) == (
        "Do the unselected folders still show in the web app, about selective sync in desktop sync client?")


def test_a_participle_before_a_noun_phrase_the_passages_write_is_part_of_the_topic():
    expired = turn("What does an expired share link show?", "Share links\nLink expiry",
                   "An expired link shows a message that the link is no longer available.",
                   "A share link can have a password. Every share link has an owner.")

    assert resolve("can I bring it back?", expired) == "Can I bring an expired share link back?"


def test_a_verb_in_s_before_its_particle_or_a_gerund_is_no_part_of_the_topic():
    trial = turn("What happens to our files when the trial runs out?", "Free trial\nWhen the trial ends",
                 "When the trial ends, the workspace becomes read-only and its files are kept for 30 days.")

    assert resolve("are they gone for good at some point?", trial) == "Are our files gone for good at some point?"


def test_the_word_after_a_named_subject_of_an_auxiliary_is_its_verb():
    assert "Lumora store" not in resolve("can I change it later?", Turn("Where does Lumora store my files?"))


def test_what_happens_to_takes_an_object_not_an_infinitive():
    folders = turn("What happens to folders I don't select for sync?", "Desktop sync client\nSelective sync",
                   "Folders you do not select are online-only.", "Online-only folders still appear in the web app.")

    assert "folders" in resolve("can I still see them in the web app?", folders)


def test_a_closing_any_after_a_verb_is_the_noun_the_answer_puts_after_that_verb():
    lost = turn("What should I do if I lose my phone with 2FA on?", "Two-factor authentication\nLost phone",
                "If you have no backup codes, ask a workspace admin to reset your 2FA.")

    assert resolve("and if I don't have any?", lost) == "And if I don't have any backup codes?"
    assert resolve("and if I don't have any?", Turn("What should I do if I lose my phone?")) == (
        "and if I don't have any?")


@pytest.mark.parametrize(
    ("previous", "question", "resolved"),
    [
        # a phrase opening with a preposition and holding no verb is a fragment however long
        ("Can I pay by cheque?", "by local bank transfer in India?", "Can I pay by local bank transfer in India?"),
        # a noun phrase with a phrase after its head: in place of the run with the same head, else added
        ("Does scheduled maintenance count as downtime?", "problems with our own network?",
         "Does scheduled maintenance count as downtime for problems with our own network?"),
        ("Who acknowledges the primary page?", "the secondary page of the night?",
         "Who acknowledges the secondary page of the night?"),
        # an adverbial clause alone: added to the previous question, or in place of its clause with the same opener
        ("Do guests take up a member slot in a trial workspace?", "once we've upgraded to Business?",
         "Do guests take up a member slot in a trial workspace once we've upgraded to Business?"),
        ("Does the owner get an email when an account is locked?", "when the password changes?",
         "Does the owner get an email when the password changes?"),
    ],
)
def test_a_verbless_phrase_or_a_bare_adverbial_clause_is_a_case_of_the_previous_question(previous, question, resolved):
    assert resolve(question, Turn(previous)) == resolved


@pytest.mark.parametrize(
    "question",
    ["if I cancel can I get a refund?", "when does the trial end?", "If I cancel, do I get a refund?",
     "By default, do share links expire?", "What's the difference between the Team and Enterprise plans?"],
)
def test_a_clause_or_phrase_with_a_question_of_its_own_is_left_alone(question):
    assert resolve_question(question, (Turn("How long is the trial?"),), config=CONFIG).question is question


CHANGE_PASSWORD = Turn("How do I change my password?",
                       ("Changing a password signs you out of all other devices.",),
                       ("Password requirements\nChanging a password\nChanging a password signs you out of all other "
                        "devices.",))


def test_it_or_that_doing_something_to_the_speaker_is_the_act_the_speaker_asked_about():
    assert resolve("does it sign me out anywhere?", CHANGE_PASSWORD) == (
        "Does changing my password sign me out anywhere?"
    )
    assert resolve("will that log me out on my phone?", CHANGE_PASSWORD) == (
        "Will changing my password log me out on my phone?"
    )
    # a pronoun the speaker acts on is still the thing
    assert resolve("can I reuse it later?", CHANGE_PASSWORD) == "Can I reuse my password later?"


PAUSE_SYNC = Turn("Where do I pause the desktop sync?", ("You can pause syncing from the tray menu.",),
                  ("Desktop sync client\nPausing sync\nYou can pause syncing from the tray menu.",))


def test_a_contracted_pronoun_refers_and_a_plural_is_no_antecedent_of_it():
    # "it's" is "it is": the pronoun is a word of its own; "my edits" is plural, no antecedent of "it"
    assert resolve("what happens to my edits while it's off?", PAUSE_SYNC) == (
        "What happens to my edits while the desktop sync is off?"
    )
    # the expletive "it's possible to" still refers to nothing, the "it" after it does
    assert resolve("it's possible to pause it from the tray menu?", PAUSE_SYNC) == (
        "It's possible to pause the desktop sync from the tray menu?"
    )
    question = "What's the trash, and isn't it possible to empty it?"
    assert resolve_question(question, (PAUSE_SYNC,), config=CONFIG).question is question
    assert resolve_question("If I delete a file, can I restore it?", (PAUSE_SYNC,), config=CONFIG).resolved is False


@pytest.mark.parametrize("question",
                         ["What's the trash?", "Where's the Billing page?", "Who's the owner of a workspace?"])
def test_a_contracted_question_word_asks_on_its_own_and_is_no_noun_phrase_of_a_fragment(question):
    assert resolve_question(question, (PAUSE_SYNC,), config=CONFIG).question is question
