"""Who a "who ...?" question's answer names (§6a): the people a later "they" stands for.

"Who can see invoices?" answered "Only the workspace owner and billing admins can see invoices." makes "can they change
the billing contact?" a question about the workspace owner and billing admins, not about invoices: "they" is the
subject of the follow-up, and the subject of the answer to "who" is who did it. Read from the answer's structure, not
from a list of people words: the agent of a passive ("reviewed *by the Lumora Labs billing team*"), else the noun
phrase before the answer's first auxiliary, modal or word of the question ("*The billing team* approves refunds").
"""
import re

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.tokens import tokenize
from answers.pipeline.topics import (
    AUXILIARIES,
    DETERMINERS,
    MODALS,
    PREPOSITIONS,
    Word,
    is_content,
    is_participle,
    stem_of,
    words_of,
)

MAX_WORDS = 8  # a longer phrase is a clause, not the people named
MAX_ADVERBIAL = 3  # words of a phrase between a passive's participle and its "by" ("at any time")
_BE = frozenset({"is", "are", "was", "were", "be", "been"})


def who_answered(question: str, answer_sentences: tuple[str, ...], *, config: PipelineConfig,
                 cited_texts: tuple[str, ...] = ()) -> str:
    """The people the first answer sentence names for a question opening with "who", else the first cited sentence
    that holds every word of the question ("Only the workspace owner can request a refund." when the answer only
    said where refunds are requested); "" for another question, no answer, or an answer whose subject is what the
    question asked about."""
    words = words_of(question)
    if not words or words[0].lower != "who" or not answer_sentences:
        return ""
    asked = set(tokenize(question, config.tokenizer))
    if named := _named(answer_sentences[0].strip(), asked, config):
        return named
    for text in cited_texts:
        for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
            if asked and asked <= set(tokenize(sentence, config.tokenizer)) and (named := _named(sentence.strip(),
                                                                                                 asked, config)):
                return named
    return ""


def _named(sentence: str, asked: set[str], config: PipelineConfig) -> str:
    """Whom one sentence names as doing what was asked: the agent of its passive, else its subject."""
    answer = words_of(sentence)
    if (agent := _agent(sentence, answer)) and not set(tokenize(agent, config.tokenizer)) & asked:
        return agent
    verb = next((i for i, w in enumerate(answer) if w.lower in AUXILIARIES or w.lower in MODALS
                 or stem_of(w, config) in asked), None)  # "can see", or the asked verb itself: "approves"
    start = next((i for i, w in enumerate(answer) if w.lower in DETERMINERS or is_content(w)), None)
    if verb is None or start is None or not 0 < verb - start <= MAX_WORDS:
        return ""
    phrase = sentence[answer[start].start : answer[verb - 1].end]
    named = set(tokenize(phrase, config.tokenizer))
    return phrase if named and not named & asked else ""


def _agent(sentence: str, words: list[Word]) -> str:
    """The agent closing a passive, "<be> <participle> [<prepositional phrase>] by X." ("is reviewed *by the Lumora
    Labs billing team*", "are handled at any time *by the operations team*"); ""
    when the sentence has none, or goes on after it with more than a short phrase could hold."""
    for i, word in enumerate(words[2:-1], start=2):
        if word.lower == "by" and _passive_before(words, i):
            agent = sentence[words[i + 1].start :].strip().rstrip(".!")
            return agent if len(agent.split()) <= MAX_WORDS and not any(c in agent for c in ",;:") else ""
    return ""


def _passive_before(words: list[Word], by: int) -> bool:
    """Whether "<be> <participle>" stands right before the "by" at `by`, or before a short phrase opening with a
    preposition ("handled *at any time* by") or an adverb in -ly ("quoted *individually* by") that stands before it."""
    for participle in range(by - 1, max(by - 2 - MAX_ADVERBIAL, 0), -1):
        between = words[participle + 1 : by]
        if (is_participle(words[participle]) and words[participle - 1].lower in _BE
                and (not between or between[0].lower in PREPOSITIONS
                     or (len(between) == 1 and len(between[0].lower) > 4 and between[0].lower.endswith("ly")))):
            return True
    return False
