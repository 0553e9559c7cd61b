"""The resolver asking the corpus (followups/material.py): a thin question is a follow-up when only the previous
topic finds its material, and stands alone when it finds its own or asks for what the documents lack."""
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Turn, resolve_question
from answers.pipeline.text.tokens import significant_terms

CONFIG = PipelineConfig()

LINKS = ("Share links. Admins can turn off any share link in the workspace; the person who created a link can too.")
CORPUS = (
    LINKS,
    "Link owners. Every link has one person as its owner.",
    "A link expires after 30 days unless its owner sets another date.",
    "Made for teams: Lumora keeps files in sync.",
    "Desktop app. Made for Windows and macOS.",
)
TURN_OFF = Turn("Can admins turn off any share link in the workspace?", ("Admins can turn off any share link.",),
                (LINKS,))


def lookup_over(passages: Sequence[str], k: int = 2):
    """A corpus lookup as the service builds one: the term sets of the k passages holding most of the terms."""
    sets = [frozenset(significant_terms(p, CONFIG.tokenizer)) for p in passages]

    def lookup(terms: Sequence[str]) -> tuple[frozenset[str], ...]:
        held = [(sum(t in s for t in terms), i) for i, s in enumerate(sets)]
        return tuple(sets[i] for count, i in sorted(held, key=lambda h: (-h[0], h[1])) if count)[:k]

    return lookup


def test_a_thin_question_whose_material_only_the_previous_topic_finds_takes_that_topic():
    resolution = resolve_question("the person who made the link?", (TURN_OFF,), config=CONFIG,
                                  lookup=lookup_over(CORPUS))

    assert resolution.resolved
    assert resolution.question == "The person who made the link (admins turn off any share link in the workspace)?"
    assert resolution.note == "reference: only the previous topic finds its material"


def test_without_a_lookup_the_rules_alone_decide():
    assert not resolve_question("the person who made the link?", (TURN_OFF,), config=CONFIG).resolved


def test_a_question_one_passage_answers_alone_stands_alone():
    corpus = (*CORPUS, "The person who made a link can delete it.")

    assert not resolve_question("the person who made the link?", (TURN_OFF,), config=CONFIG,
                                lookup=lookup_over(corpus, k=8)).resolved


def test_a_question_about_what_the_documents_lack_is_no_follow_up():
    assert not resolve_question("Can I pay with Bitcoin?", (TURN_OFF,), config=CONFIG,
                                lookup=lookup_over(CORPUS)).resolved


def test_material_the_previous_answer_did_not_cite_is_no_sign_of_a_follow_up():
    uncited = Turn(TURN_OFF.question, TURN_OFF.answer_sentences, ("Desktop app. Made for Windows and macOS.",))

    assert not resolve_question("the person who made the link?", (uncited,), config=CONFIG,
                                lookup=lookup_over(CORPUS)).resolved
