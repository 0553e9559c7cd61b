"""The resolver's entry point: which rule a follow-up question is for, and the tidied standalone rewrite."""
import re
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups.fragments import (
    COMPLEMENTS,
    append_case,
    asks_after_comma,
    head_cited,
    heads_parallel,
    modal_only,
    participle_fragment,
    phrase_in_place,
    rewrite_fragment,
    to_for,
    wh_slot,
)
from answers.pipeline.followups.pronouns import substitute_pronouns
from answers.pipeline.followups.thin import after_that, continued_from_passage, rewrite_referring, with_situation
from answers.pipeline.followups.turns import RULES, FollowupRules, Resolution, Turn
from answers.pipeline.followups.words import END, PREDICATES, terms_of
from answers.pipeline.topics import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    PREPOSITIONS,
    QUESTION_WORDS,
    REFERRING,
    SUBJECTS,
    Word,
    is_content,
    is_participle,
    words_of,
)

_WHAT_ABOUT = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:what|how)\s+about\s+(?P<rest>.+)$", re.I)
_SAME = re.compile(
    r"^\s*(?:and\s+)?(?:(?:is|are|does|do|would|will)\s+(?:(?:that|it|this|they|those)\s+(?:also\s+)?(?:be\s+)?)?)?"
    r"(?:the\s+)?same\s+(?:(?:question|thing|answer)\s+)?(?:(?:apply|applies|go|goes|hold|holds|true)\s+)?"
    r"(?P<rest>(?:for|on|in|with|at|over|through|via|to)\b.+)$",
    re.I,
)
# "is that available on Android too?": a clause pronoun, one predicate word, and the new case.
_CLAUSE = re.compile(
    r"^\s*(?:and\s+)?(?:is|are|does|do|would|will|can)\s+(?:that|this)\s+(?:also\s+)?(?P<predicate>\S+)\s+"
    r"(?P<rest>(?:for|on|in|with|at|over|through|via|to)\b.+)$",
    re.I,
)
_QUANTIFIERS = frozenset({"any", "some"})
# Words that open an adverbial clause: "once we've upgraded to Business?" is a condition on the previous question.
_SUBORDINATORS = frozenset({"if", "once", "until", "unless", "while", "since", "because", "when"})
# "storage, then?": a closing discourse "then" after a comma
_THEN = re.compile(r"\s*,\s*then\s*[?.!]*\s*$", re.I)
# "German too?", "and for guests as well?": a case added to the previous question.
_TOO = re.compile(r"\s*(?:,\s*)?\b(?:too|as\s+well|either|instead)\s*[?.!]*\s*$", re.I)
# "if I'm on the Team plan": a condition on the speaker that only names the new case
_IF_I = re.compile(
    r"^\s*(?:(?:and|but|so)\s+)?(?:what\s+)?(?:if|when)\s+(?:i|we)(?:'m|'re|\s+am|\s+are|\s+have|\s+use)?"
    r"(?:\s+using)?\s+(?P<rest>(?:on|in|with|at|for|using)\b.+)$",
    re.I,
)


def resolve_question(
    question: str, history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules = RULES
) -> Resolution:
    """The standalone form of a question asked after `history` (oldest first); the very same string unless it is
    a follow-up."""
    unchanged = Resolution(question, False)
    if not history or not question.strip():
        return unchanged
    asked = _PRONOUN_CONTRACTION.sub(_expanded, question.strip())  # "while it's off": the pronoun is "it"
    rewrite = _rewrite(asked, history, config=config, rules=rules)
    if rewrite is None:
        return unchanged
    text, note = _tidy(_recontracted(rewrite[0], question.strip())), rewrite[1]
    if text.lower() in (_tidy(question).lower(), _tidy(asked).lower()):
        return unchanged
    return Resolution(text, True, note)


# A pronoun or question word contracted with its verb ("it's", "they're", "what's"), written out so each is a word of
# its own: "What's the trash?" asks on its own, no noun phrase of a fragment.
_PRONOUN_CONTRACTION = re.compile(r"\b(it|that|they|there|what|when|where|who|why|how)'(s|re|ve|ll|d)\b", re.I)
_CONTRACTED = {"s": "is", "re": "are", "ve": "have", "ll": "will", "d": "would"}


def _expanded(match: re.Match[str]) -> str:
    return f"{match.group(1)} {_CONTRACTED[match.group(2).lower()]}"


def _recontracted(text: str, question: str) -> str:
    """The rewrite with each contraction of the question written as the question wrote it, where the rewrite kept
    the words ("What is the longest expiry ...?" -> "What's the longest expiry ...?")."""
    for match in _PRONOUN_CONTRACTION.finditer(question):
        written = _expanded(match)
        found = re.search(rf"\b{re.escape(written)}\b", text, re.I)
        if found:
            original = match.group(0)
            if found.group(0)[:1].isupper():
                original = original[:1].upper() + original[1:]
            text = text[: found.start()] + original + text[found.end() :]
    return text


def _tidy(text: str) -> str:
    """One line, no space before punctuation, a capital first and one question mark last."""
    text = END.sub("", re.sub(r"\s+([?,.!])", r"\1", re.sub(r"\s+", " ", text).strip()))
    return text[:1].upper() + text[1:] + "?"


def _rewrite(
    question: str, history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules
) -> tuple[str, str] | None:
    """The rewrite and a note saying which rule made it, or None for a standalone question."""
    previous = history[-1].question.strip()
    if not words_of(previous):
        return None
    if same := _SAME.match(question):
        rest = to_for(END.sub("", _TOO.sub("", same.group("rest"))))
        return _noted(rewrite_fragment(rest, previous, history, config=config),
                      "sameness: the previous question, new case")
    if if_i := _IF_I.match(question):
        rest = to_for(END.sub("", _TOO.sub("", if_i.group("rest"))))
        if len(terms_of(rest, config)) <= rules.max_fragment_terms:
            return _noted(rewrite_fragment(rest, previous, history, config=config),
                          "ellipsis: a condition naming a case")
    if (clause := _CLAUSE.match(question)) and clause.group("predicate").lower() in PREDICATES:
        rest = to_for(END.sub("", _TOO.sub("", clause.group("rest"))))
        if len(terms_of(rest, config)) <= rules.max_fragment_terms:
            return _noted(rewrite_fragment(rest, previous, history, config=config),
                          "sameness: the previous question, new case")
    if about := _WHAT_ABOUT.match(question):
        rest = END.sub("", about.group("rest"))
        if asks_after_comma(rest):
            return None  # "What about guests, are they charged as users?": the clause asks it all, about X
        if len(terms_of(rest, config)) > rules.max_fragment_terms:
            return None
        return _noted(rewrite_fragment(rest, previous, history, config=config), "ellipsis: what about")
    if then := _THEN.search(question):
# "storage, then?", "password reset links, then?": the "then" says it goes on from the previous question
        rest = question[: then.start()]
        if (fragment := _rewrite(rest + "?", history, config=config, rules=rules)) and fragment[1].startswith(
                "ellipsis"):
            return fragment
        if (all(is_content(w) or w.lower in DETERMINERS for w in words_of(rest))
                and 0 < len(terms_of(rest, config)) <= rules.max_fragment_terms):
            return _noted(rewrite_fragment(rest, previous, history, config=config), "ellipsis: a phrase, then")
    words = words_of(question)
    if not words:
        return None
    opener = words[0].lower
    if (passive := participle_fragment(question, words, previous, config=config, rules=rules)) is not None:
        return passive, "ellipsis: a new participle for the previous passive"
    if (bare := modal_only(question, words, config)) and (
            filled := _rewrite(bare + "?", history, config=config, rules=rules)):
        return filled[0], "ellipsis: a modal and a subject, the previous verb phrase"
    if _TOO.search(question) and not (opener in QUESTION_WORDS or opener in AUXILIARIES or opener in SUBJECTS
                                      or opener in CONJUNCTIONS or opener in PREPOSITIONS):
        rest = END.sub("", _TOO.sub("", question))  # "German too?": no verb of its own, a case of the previous one
        if 0 < len(terms_of(rest, config)) <= rules.max_fragment_terms:
            return _noted(rewrite_fragment(rest, previous, history, config=config), "ellipsis: a case with 'too'")
    closing_one = len(words) > 1 and words[-1].lower in ("one", "ones") and is_content(words[-2])  # "the Oregon one"
    if (all(is_content(w) or w.lower in DETERMINERS for w in (words[:-1] if closing_one else words))
            and 0 < len(terms_of(question, config)) <= (
                3 if heads_parallel(words, previous, config) or head_cited(words, history[-1], config) else 2)):
        # "Windows?": a noun phrase and nothing else, no question of its own
        return _noted(rewrite_fragment(END.sub("", question), previous, history, config=config),
                      "ellipsis: a bare phrase")
    if words[0].lower in CONJUNCTIONS and len(words) > 1:
        second = words[1]
        if (in_place := _new_clause(question, words, previous)) is not None:
            return in_place, "ellipsis: a new clause in place of the previous question's own"
        if second.lower in QUESTION_WORDS or second.lower in AUXILIARIES:
            question = question[second.start :]  # "And how do I ...?": a question of its own after the "and"
            words = words_of(question)
        else:
            rest = END.sub("", _TOO.sub("", question[second.start :]))
            if len(terms_of(rest, config)) > rules.max_fragment_terms + 1:
                return None
            if fragment := _noted(rewrite_fragment(rest, previous, history, config=config),
                                  "ellipsis: a fragment after a conjunction"):
                return fragment
            if words_of(rest)[-1].lower not in _QUANTIFIERS:
                return None
            # "and if I don't have any?": no case of the previous question, a clause whose object is left out
    elif words[0].lower in PREPOSITIONS:
        rest = END.sub("", _TOO.sub("", question))
        # a longer phrase is a fragment too when it has no verb of its own ("by local bank transfer in India?")
        longest = rules.max_fragment_terms + (2 if "," not in question and _verbless(words) else 0)
        if len(terms_of(rest, config)) > longest:
            return None
        return _noted(rewrite_fragment(rest, previous, history, config=config), "ellipsis: a fragment")
    if (adverbial := _bare_clause(question, words, previous, history, config)) is not None:
        return adverbial, "ellipsis: an adverbial clause for the previous question"
    if (phrase := phrase_in_place(question, words, previous, config=config, rules=rules)) is not None:
        return phrase, "ellipsis: a phrase in place of the previous question's own"
    if slot := wh_slot(question, words, previous, config=config, rules=rules):
        return slot, "ellipsis: a new asked-for slot, the previous predicate"
    if _noun_with_complement(question, words) and len(terms_of(question, config)) <= rules.max_fragment_terms + 1:
        # "the engineering manager on duty?", "problems with our own network?": a noun phrase and nothing else
        return (append_case(END.sub("", question), previous, config=config),
                "ellipsis: a noun phrase and its complement")
    if timed := after_that(question, words, history):
        return timed, "reference: the time of the previous situation"
    if situated := with_situation(question, words, history, config=config):
        return situated, "reference: an adverb standing for the previous situation"
    return (rewrite_referring(question, words, history, config=config, rules=rules)
            or continued_from_passage(question, history[-1], config))


def _verbless(words: list[Word]) -> bool:
    """Whether the words hold no verb a question could be asked with: no auxiliary, question word or subject, nor
    one contracted ("what's", "we've")."""
    return not any(word in AUXILIARIES or word in QUESTION_WORDS or word in SUBJECTS
                   for w in words for word in (w.lower, w.lower.partition("'")[0]))


def _noun_with_complement(question: str, words: list[Word]) -> bool:
    """Whether the question is a noun phrase with a phrase after its head and nothing else: content words and
    determiners, then a preposition and what it governs ("the engineering manager on duty", "problems with our own
    network"), no verb, pronoun or comma."""
    if "," in question or not _verbless(words) or any(w.lower in REFERRING and w.lower not in DETERMINERS
                                                      for w in words):
        return False
    split = next((i for i, w in enumerate(words) if w.lower in COMPLEMENTS), None)
    if split is None or split == 0:
        return False
    head, tail = words[:split], words[split + 1 :]
    return (any(is_content(w) for w in head) and all(is_content(w) or w.lower in DETERMINERS for w in head)
            and not is_participle(head[-1])  # "limited to a number of downloads?" is a participle's phrase
            and any(is_content(w) for w in tail))


def _bare_clause(
    question: str, words: list[Word], previous: str, history: Sequence[Turn], config: PipelineConfig
) -> str | None:
    """A question that is only an adverbial clause ("once we've upgraded to Business?"), put in place of the previous
    question's clause opening with the same word or added to its end; None for a question of its own ("when does it
    end?", "if I cancel, do I get a refund?", "if I cancel can I get a refund?")."""
    if (len(words) < 3 or words[0].lower not in _SUBORDINATORS or "," in question
            or words[1].lower in AUXILIARIES or any(w.lower in QUESTION_WORDS for w in words[1:])):
        return None
    for i in range(2, len(words)):  # an inverted auxiliary opens a question of its own: "... can I get a refund?"
        if words[i].lower in AUXILIARIES and i + 1 < len(words) and (
                words[i + 1].lower in SUBJECTS or words[i + 1].lower in DETERMINERS):
            return None
    clause = substitute_pronouns(question, words, history, config=config) or question
    before = words_of(previous)
    same = next((w for w in before[1:] if w.lower == words[0].lower), None)
    if same is not None:
        return previous[: same.start] + END.sub("", clause)
    return f"{END.sub('', previous)} {END.sub('', clause)}"


def _new_clause(question: str, words: list[Word], previous: str) -> str | None:
    """"and when/if <clause>?" with a subject other than I/we and no comma, put in place of the previous question's
    clause opening with the same word ("and when its storage quota is full?" after "What happens to a workspace when
    the trial ends?"); None for another question ("and when does it end?" asks on its own; "and if I'm the owner?"
    adds a condition)."""
    opener = words[1].lower
    if (opener not in ("when", "if") or len(words) < 3 or words[2].lower in AUXILIARIES
            or words[2].lower.partition("'")[0] in SUBJECTS or "," in question):
        return None
    for word in words_of(previous)[1:]:
        if word.lower == opener:
            return previous[: word.start] + END.sub("", question[words[1].start :])
    return None


def _noted(rewrite: str | None, note: str) -> tuple[str, str] | None:
    return None if rewrite is None else (rewrite, note)
