"""The words of a question by role, and the topic phrases of the last turns of a conversation."""
import pytest

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Turn
from answers.pipeline.topics import (
    asked_noun,
    modifiers_of,
    singular,
    situation_named,
    topic_skips,
    topics_of,
    words_of,
)

CONFIG = PipelineConfig()


def skipped_words(question: str) -> list[str]:
    words = words_of(question)
    return [words[i].text for i in sorted(topic_skips(words))]


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("How many failed sign-in attempts lock an account?", "lock"),  # between a noun and an article
        ("Which currencies are invoices issued in?", "issued"),  # a participle closing the run
        ("Is a credit card needed?", "needed"),
        ("How long are deleted files kept in the trash?", "kept"),  # an irregular one
        ("Can I see who changed a file?", "changed"),  # right after a subject "who"
        ("Who approves refund requests?", "approves"),
    ],
)
def test_a_verb_inside_a_run_of_content_words_is_no_part_of_a_topic(question, verb):
    assert verb in skipped_words(question)


def test_an_adjective_before_its_noun_is_kept():
    assert "deleted" not in skipped_words("How long are deleted files kept in the trash?")
    assert "lost" not in skipped_words("Can I sign out a lost computer remotely?")


def test_the_asked_for_noun_and_its_singular():
    words = words_of("Which currencies are invoices issued in?")

    first, last = asked_noun(words)
    assert (words[first].text, last) == ("currencies", first)
    assert asked_noun(words_of("How long do refunds take?")) is None
    assert [singular(w) for w in ("currencies", "links", "class", "status")] == ["currency", "link", "class", "status"]


def test_the_words_the_passages_put_before_a_noun_from_an_allowed_set():
    texts = ("Lumora sends a reset link.", "Password reset links expire after one hour.")

    assert modifiers_of("link", texts, {"password", "reset", "forgotten"}, config=CONFIG) == "password reset"
    assert modifiers_of("link", texts, {"forgotten"}, config=CONFIG) == ""


def test_a_place_phrase_after_a_participle_stays_with_the_things_it_holds():
    history = (Turn("How long are deleted files kept in the trash?", ("Deleted files are kept for 30 days.",),
                    ("Trash\nDeleted files are kept in the trash for 30 days.",)),)

    phrases = [t.phrase for t in topics_of(history, config=CONFIG)]

    assert phrases[0] == "deleted files in the trash"
    assert "deleted files kept" not in phrases


def test_a_phrase_the_passages_put_next_to_the_verb_comes_first():
    history = (
        Turn("How long is the free trial?", ("The free trial lasts 14 days.",),
             ("Free trial\nThe trial end date is shown in the console.",)),
        Turn("Is a credit card needed?", ("No card is needed.",), ("Payment details\nNo card is needed.",)),
    )

    assert topics_of(history, config=CONFIG)[0].phrase == "a credit card"
    assert topics_of(history, config=CONFIG, verbs=frozenset({"end"}))[0].phrase == "the free trial"


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("What does the Business plan cost?", "cost"),
        ("Which browsers does the web app support?", "support"),
        ("How many requests per minute does the API allow?", "allow"),
    ],
)
def test_the_verb_closing_a_question_whose_object_was_fronted_is_no_topic(question, verb):
    assert verb in skipped_words(question)
    assert "history" not in skipped_words("How long does the Business plan keep version history?")


def test_the_asked_for_noun_spans_two_words_before_an_auxiliary():
    words = words_of("Which data centres does Lumora use?")

    assert asked_noun(words) == (1, 2)
    assert asked_noun(words_of("Which plan includes phone support?")) == (1, 1)


def test_a_phrase_cut_before_its_head_noun_ranks_below_the_whole_and_a_written_out_phrase_stays_whole():
    tokens = Turn("What are personal access tokens?", ("Personal access tokens expire after 120 days.",),
                  ("API authentication\nPersonal access tokens expire after 120 days.",))
    restore = Turn("How do I restore a deleted file?", ("Every member can restore the files they deleted.",),
                   ("Trash\nEvery member can restore the files they deleted.",))

    phrases = [t.phrase for t in topics_of((tokens,), config=CONFIG)]
    assert phrases.index("personal access tokens") < phrases.index("personal access")
    assert topics_of((restore,), config=CONFIG)[0].phrase == "a deleted file"


def test_a_phrase_two_recent_questions_hold_ranks_first():
    history = (Turn("How do I create a share link?", ("Click Create link.",), ("Share links\nClick Create link.",)),
               Turn("Can I put a password on a share link?", ("Links can have a password.",),
                    ("Share links\nLinks can have a password.",)))

    assert topics_of(history, config=CONFIG)[0].phrase == "a share link"


def test_a_number_with_decimals_or_a_percent_sign_is_one_word():
    assert [w.text for w in words_of("below 99.9% or 99%, 5-7 days")] == ["below", "99.9%", "or", "99%", "5-7", "days"]


def test_for_it_a_singular_thing_the_question_names_comes_before_a_plural_asked_for_noun_in_the_singular():
    history = (Turn("Which operating systems does the desktop app support?",
                    ("The desktop app runs on Windows 10 or later.",),
                    ("Desktop sync client\nThe desktop app runs on Windows 10 or later and macOS 13.",)),)

    singular_topics = [t.phrase for t in topics_of(history, config=CONFIG) if not t.plural]

    assert singular_topics[0] == "the desktop app"


def test_a_refused_question_s_own_phrase_is_its_topic_not_a_word_it_shares_with_an_older_one():
    history = (Turn("What is the API rate limit?", ("The API rate limit is 600 requests per minute.",),
                    ("API rate limits\nThe API rate limit is 600 requests per minute for each API token.",)),
               Turn("Is there a GraphQL API?"))

    assert topics_of(history, config=CONFIG, verbs=frozenset({"rate"}))[0].phrase == "a GraphQL API"


def test_the_asked_for_noun_takes_the_name_its_answer_writes_before_it():
    answered = Turn("Which plan includes single sign-on?",
                    ("Business plan workspaces can use single sign-on with SAML.",))
    unnamed = Turn("Which plan includes single sign-on?", ("Single sign-on is included in one plan.",))

    assert "the Business plan" in [t.phrase for t in topics_of([answered], config=CONFIG)]
    assert "the plan" in [t.phrase for t in topics_of([unnamed], config=CONFIG)]
    assert not any("Business" in t.phrase for t in topics_of([unnamed], config=CONFIG))


def test_after_an_opening_is_the_word_before_an_article_closes_the_subject_and_is_no_verb():
    assert "keys" not in skipped_words("Are hardware security keys a Business-only feature?")
    assert "lock" in skipped_words("How many failed sign-in attempts lock an account?")


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("What does the embed widget do?", "widget"),  # "do" is the verb; the run before it is all subject
        ("What does the Business plan mean?", "plan"),
    ],
)
def test_the_run_before_a_closing_do_or_mean_is_the_subject_with_no_verb_in_it(question, kept):
    assert kept not in skipped_words(question)


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("Which plans can use SAML single sign-on?", "use"),  # the word after "<noun> can"
        ("Can admins restore files another member deleted?", "restore"),  # after "can <bare plural>"
        ("Do guests count as members?", "count"),
    ],
)
def test_the_verb_right_after_a_modal_s_subject_is_no_part_of_a_topic(question, verb):
    assert verb in skipped_words(question)


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("Do share links expire?", "links"),  # "share" is no bare plural: "share links" is the subject
        ("How long do refunds take to process?", "refunds"),  # "long do": "do" has its subject after it
        ("Which plans do admins manage?", "admins"),  # the word after "do" is its subject
    ],
)
def test_a_subject_after_a_modal_keeps_its_words(question, kept):
    assert kept not in skipped_words(question)


def test_the_name_an_answer_gives_the_situation_a_what_happens_question_described_ranks_first():
    conflict = Turn("What happens when two people edit the same file before it syncs?",
                    ("A conflict happens when two people change the same file before syncing.",),
                    ("Desktop sync client\nConflicts\nA conflict happens when two people change the same file before "
                     "syncing. Lumora keeps both copies when a conflict happens.",))
    unnamed = Turn("What happens when two people edit the same file before it syncs?",
                   ("Lumora keeps both copies.",), ("Desktop sync client\nConflicts\nLumora keeps both copies.",))
    asked = Turn("Why does a conflict happen when two people edit a file?",
                 ("A conflict happens when two people change the same file before syncing.",), ())

    assert topics_of([conflict], config=CONFIG)[0].phrase == "a conflict"
    assert "a conflict" not in [t.phrase for t in topics_of([unnamed], config=CONFIG)]
    assert situation_named(conflict) == "a conflict"
    assert situation_named(unnamed) is None
    assert situation_named(asked) is None  # not a "what happens when ...?" question


def test_the_asked_for_noun_takes_the_name_its_answer_gives_it_with_called():
    called = Turn("Which folder do camera uploads go to?",
                  ("Backed-up photos go to a folder called Camera Uploads in your personal space.",))
    lower = Turn("Which folder do camera uploads go to?", ("Backed-up photos go to a folder called backups.",))

    assert "the Camera Uploads folder" in [t.phrase for t in topics_of([called], config=CONFIG)]
    assert "the backups folder" not in [t.phrase for t in topics_of([lower], config=CONFIG)]


def test_a_code_literal_names_its_thing_however_the_passages_order_its_words():
    history = (Turn("What does the rate_limited error code mean?",
                    ("The API returns status code 429 when a client exceeds the rate limit.",),
                    ("API rate limits\nThe response body contains an error code named rate_limited.",)),)

    assert topics_of(history, config=CONFIG)[0].phrase == "the rate_limited error code"

