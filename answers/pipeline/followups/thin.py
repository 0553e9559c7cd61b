"""Referring, elided, definite-and-thin, conditional and situated questions, and those that go on from a passage."""
import itertools
import re
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.continuation import continued_passage, with_passage
from answers.pipeline.followups.antecedents import pointing_pronouns
from answers.pipeline.followups.pronouns import substitute_pronouns
from answers.pipeline.followups.referents import passive_clause
from answers.pipeline.followups.topic_phrase import best_topic, indefinite
from answers.pipeline.followups.turns import FollowupRules, Turn
from answers.pipeline.followups.verb_phrases import verb_phrase
from answers.pipeline.followups.words import CLAUSE_OPENERS, DEGREE, DO, END, bare_phrase, terms_of
from answers.pipeline.text.questions import question_terms
from answers.pipeline.text.tokens import significant_terms
from answers.pipeline.topics import (
    AUXILIARIES,
    DETERMINERS,
    LIGHT_VERBS,
    PREPOSITIONS,
    QUESTION_WORDS,
    SUBJECTS,
    Word,
    cited_title,
    is_content,
    is_name,
    is_participle,
    is_plural,
    modifiers_of,
    not_topic,
    plural_of,
    singular,
    stem_of,
    topic_skips,
    words_of,
)

_LEADING = frozenset({"so", "and", "then", "but", "also"})  # words a question may open with before its question word
_DEMONSTRATIVES = frozenset({"those", "these", "them"})  # "how many of those": the things named before
_QUANTIFIERS = frozenset({"any", "some"})  # a last word after a verb whose object is left out ("do I have any?")
_ELIDING = frozenset({"more", "another", "fewer"})  # a last word whose noun is left out ("can I get more?")
# Adverbs that stand for the situation the previous question set ("then", "beforehand"), never "still" or
# "instead", which a question of its own holds as often ("Is Internet Explorer still supported?").
_SITUATION_ADVERBS = frozenset({"then", "beforehand", "afterwards", "afterward", "meanwhile"})
_SITUATION_OPENERS = frozenset({"if", "when", "after", "once", "before", "while"})
_SUPERLATIVES = frozenset({"most", "least", "maximum", "minimum", "best", "first", "last"})
_WHAT_IF = re.compile(r"^\s*(?:and\s+)?what\s+(?:if|happens\s+(?:if|when))\b", re.I)


def introduced(turn: Turn, config: PipelineConfig) -> str:
    """The thing the previous answer introduces, in the plural: the first "a/an <noun>..." of its sentences that
    the question did not name ("sign in with *a backup code*" -> "backup codes"); "" when there is none."""
    asked = set(terms_of(turn.question, config))
    for sentence in turn.answer_sentences:
        words = words_of(sentence)
        for i, word in enumerate(words[:-1]):
            if word.lower not in ("a", "an"):
                continue
            run = list(itertools.takewhile(lambda w: is_content(w) and not is_participle(w), words[i + 1 : i + 4]))
            if run and not set(terms_of(" ".join(w.text for w in run), config)) & asked and not is_plural(run[-1].text):
                return " ".join([*(w.text for w in run[:-1]), plural_of(run[-1].text)])
    return ""


def with_situation(question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig) -> str | None:
    """A question whose adverb stands for the situation the previous question set ("can I still download my files
    *then*?", "are admins told *beforehand*?") with that situation beside it: the previous question's topic and its
    clause after "if/when/after/once/before" ("... then, for a card payment, if a card payment fails"); None for a
    question with no such adverb, or one whose own clause sets the situation ("if I delete it, then ...")."""
    if not any(w.lower in _SITUATION_ADVERBS for w in words) or any(w.lower in CLAUSE_OPENERS for w in words):
        return None
    previous = history[-1].question.strip()
    before = words_of(previous)
    opener = next((w for w in before[1:] if w.lower in _SITUATION_OPENERS), None)
    clause = END.sub("", previous[opener.start :]) if opener else ""
    topic = bare_phrase(best_topic(history, plural=None, config=config))
    if topic and clause and set(terms_of(topic, config)) <= set(terms_of(clause, config)):
        topic = ""
    about = ", ".join(part for part in (f"for {topic}" if topic else "", clause) if part)
    return f"{END.sub('', question)}, {about}" if about else None


def after_that(question: str, words: list[Word], history: Sequence[Turn]) -> str | None:
    """A question closing with "before/after that", the time of the previous situation: "that" put as that situation,
    the act the previous question asked as "I/we" or "who can ..." as a gerund ("is there any way back after that?"
    after "How do I empty the trash?" -> "... after emptying the trash"), its clause after "if/when/once" ("do we get
    warned before that?" after "What happens when our storage quota is full?" -> "... before our storage quota is
    full"), or its passive clause; None for another question, one with a pronoun that points outside it (the
    pronoun's rule keeps "after that" a time: "can support recover them after that?"), or when the previous question
    sets no situation."""
    if (len(words) < 3 or words[-1].lower != "that" or words[-2].lower not in ("before", "after")
            or pointing_pronouns(words, question)):
        return None
    previous = history[-1].question.strip()
    before = words_of(previous)
    opener = next((w for w in before[1:] if w.lower in ("if", "when", "once")), None)
    situation = (verb_phrase(previous, gerund=True)
                 or (END.sub("", previous[opener.end :]).strip() if opener else "")
                 or passive_clause(previous))
    return question[: words[-1].start] + situation + question[words[-1].end :] if situation else None


def continued_from_passage(question: str, latest: Turn, config: PipelineConfig) -> tuple[str, str] | None:
    """A question that goes on reading the previous answer's cited passage, with that passage's headings beside it
    (continuation.py); None for one that names its own subject."""
    path = continued_passage(question, latest.question, latest.cited_texts, config=config)
    return ((with_passage(question, path, latest.cited_texts), "reference: goes on from the previous passage") if path
            else None)


def _elided(quantifier: str, rest: list[Word]) -> bool:
    """Whether "how many/much" lacks its noun: "how many" followed by an auxiliary or a subject ("how many do I
    get?"); "how much", an amount on its own ("how much does annual billing save?"), only when a subject pronoun
    follows its auxiliary ("how much do I get?")."""
    following = rest[0].lower
    if quantifier == "many":
        return following in AUXILIARIES or following in SUBJECTS
    return following in SUBJECTS or (following in AUXILIARIES and len(rest) > 1 and rest[1].lower in SUBJECTS)


def rewrite_referring(
    question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules
) -> tuple[str, str] | None:
    """A referring, elided, conditional or definite-and-thin question rewritten; None for a standalone one."""
    if substituted := substitute_pronouns(question, words, history, config=config):
        return substituted, "reference: a pronoun replaced by the previous topic"
    for i, word in enumerate(words[1:-2], start=1):
        if (word.lower in ("many", "much") and words[i - 1].lower == "how" and words[i + 1].lower == "of"
                and words[i + 2].lower in _DEMONSTRATIVES and (topic := introduced(history[-1], config))):
            # "how many of those do I get?" after an answer "sign in with a backup code": backup codes
            return (question[: word.end] + f" {topic}" + question[words[i + 2].end :],
                    "ellipsis: how many of the topic")
    for i, word in enumerate(words[1:-1], start=1):
        if word.lower in ("many", "much") and words[i - 1].lower == "how" and _elided(word.lower, words[i + 1 :]):
            topic = bare_phrase(best_topic(history, plural=True if word.lower == "many" else None, config=config))
            if topic:
                return question[: word.end] + f" {topic}" + question[word.end :], "ellipsis: how many of the topic"
    if (words[-1].lower in _QUANTIFIERS and len(words) > 1 and words[-2].lower not in SUBJECTS
            and words[-2].lower not in PREPOSITIONS and words[-2].lower not in DETERMINERS
            and (thing := _object_written(words[-2], history[-1], config))):
        # "and if I don't have any?" after an answer "If you have no backup codes, ...": the noun it puts after the
        # same verb
        return question[: words[-1].end] + f" {thing}" + question[words[-1].end :], "ellipsis: the answer's object"
    if words[-1].lower in _ELIDING and len(words) > 1 and (is_content(words[-2]) or words[-2].lower in SUBJECTS) \
            and not any(is_content(w) and i not in not_topic(words) for i, w in enumerate(words[:-2])):
        # "can I get more?": more of the topic ("another" and "one more": one of them)
        topic = best_topic(history, plural=True, config=config)
        if topic:
            left_out = bare_phrase(topic) if words[-1].lower != "another" else indefinite(topic).split(" ", 1)[1]
            return question[: words[-1].end] + f" {left_out}" + question[words[-1].end :], "ellipsis: more of the topic"
    if (superlative := _elided_superlative(words)) is not None and (
            head := _object_head(history[-1].question) or bare_phrase(best_topic(history, plural=None,
                                                                              config=config))):
        # "what's the longest I can pick?" after "How do I set a custom expiry on a share link?": the longest expiry
        if is_plural(head):
            head = f"{head.rpartition(' ')[0]} {singular(head.rpartition(' ')[2])}".strip()
        return (question[: words[superlative].end] + f" {head}" + question[words[superlative].end :],
                "ellipsis: a superlative without its noun")
    terms = question_terms(question, config=config)
    if len(terms) > rules.max_thin_terms:
        return None
    latest = history[-1]
    # The cited passages are whole chunks, read again for every follow-up: their distinct terms are remembered by text.
    mentioned = {t for text in (*latest.cited_texts, *latest.answer_sentences)
                 for t in significant_terms(text, config.tokenizer)}
    for i, word in enumerate(words[:-1]):
        noun = words[i + 1]
        if word.lower in ("the", "each", "every") and is_content(noun) and stem_of(noun, config) in mentioned:
            asked = {stem_of(w, config) for w in words_of(latest.question)} - set(terms) - {""}
            texts = (*latest.answer_sentences, *latest.cited_texts)
            # A noun the previous question used already names what that question was about ("the trial period").
            repeated = stem_of(noun, config) in asked | set(terms_of(latest.question, config))
            if not repeated and (modifiers := modifiers_of(stem_of(noun, config), texts, asked, config=config)):
                # "the link" after "How do I reset ...?", where the passages write "password reset links"
                return question[: noun.start] + f"{modifiers} " + question[noun.start :], "reference: a definite noun"
            topic = bare_phrase(best_topic(history, plural=None, config=config))
            if topic and not set(terms_of(topic, config)) & set(terms):
                return question[: noun.start] + f"{topic} " + question[noun.start :], "reference: a definite noun"
    if _vague_subject(words, latest, config) and (about := verb_phrase(latest.question, gerund=True, light=True)):
        # "where does the money go?" after "Can I get a refund if ...?": the money of getting that refund
        return f"{END.sub('', question)} for {about}", "reference: a subject that only the previous turn pins down"
    if _WHAT_IF.match(question):  # after a definite noun's rule: "what if the link has expired?" is the reset link
        topic = cited_title(latest.cited_texts) or bare_phrase(best_topic(history, plural=None, config=config))
        return (f"{END.sub('', question)} with {topic}", "reference: what if, about the topic") if topic else None
    return _topicless(question, words, history, config=config)


def _object_written(verb: Word, turn: Turn, config: PipelineConfig) -> str:
    """The plural noun phrase the previous answer writes after the same verb, past "no/any/some/a/an" ("have no
    backup codes" for "have any"); "" when it writes none."""
    stem = stem_of(verb, config)
    for sentence in turn.answer_sentences:
        words = words_of(sentence)
        for i, word in enumerate(words[:-1]):
            if word.lower != verb.lower and not (stem and stem_of(word, config) == stem):
                continue
            k = i + 1 + (words[i + 1].lower in ("no", "any", "some", "a", "an"))
            run = list(itertools.takewhile(lambda w: is_content(w) and not is_participle(w), words[k : k + 3]))
            head = next((n for n, w in enumerate(run) if is_plural(w.text)), None)  # "backup codes[,] ask ..."
            if head is not None:
                return " ".join(w.text for w in run[: head + 1])
    return ""


def _object_head(previous: str) -> str:
    """The head noun of the object of a question asked as "I/we", the last word before a preposition ("expiry" of
    "How do I set a custom expiry on a share link?"); "" for another question."""
    head = ""
    for word in words_of(verb_phrase(previous, gerund=False))[1:]:
        if word.lower in PREPOSITIONS or not (is_content(word) or word.lower in DETERMINERS):
            break
        head = word.text if is_content(word) else head
    return head


def _elided_superlative(words: list[Word]) -> int | None:
    """The index of a superlative after "the" with no noun after it, only a clause or nothing ("what's the *longest* I
    can pick?", "which is the *cheapest*?"); None when there is none or it has its noun ("the longest expiry")."""
    for k in range(1, len(words)):
        word = words[k].lower
        if words[k - 1].lower != "the" or not (word in _SUPERLATIVES or (len(word) > 5 and word.endswith("est"))):
            continue
        following = words[k + 1].lower if k + 1 < len(words) else ""
        if not following or following in SUBJECTS or following in AUXILIARIES:
            return k
    return None


def _vague_subject(words: list[Word], latest: Turn, config: PipelineConfig) -> bool:
    """Whether a thin question's subject needs the previous turn to be pinned down: "<wh> do/does the <noun> <verb>"
    or "<wh> do/does <noun>ing <verb>" and nothing else ("where does the money go?", "how long does processing
    take?"), the noun no word of the previous question, answer or passages, nor a name; not a question asked as
    "I/we", one whose subject is a compound ("how long is the free trial?") or whose verb has more after it."""
    start = next((i for i, w in enumerate(words) if w.lower in AUXILIARIES), None)
    lead = next((i for i, w in enumerate(words) if w.lower in QUESTION_WORDS), None)  # after "so", "and", "then"
    if (start is None or lead is None or not lead < start or words[start].lower not in DO
            or not all(w.lower in _LEADING for w in words[:lead])
            or not all(w.lower in QUESTION_WORDS or w.lower in DEGREE for w in words[lead:start])):
        return False
    rest = words[start + 1 :]
    if rest and rest[0].lower == "the":
        rest = rest[1:]
    elif not (rest and rest[0].lower.endswith("ing") and len(rest[0].lower) > 5):
        return False
    if len(rest) != 2 or not all(is_content(w) for w in rest) or any(is_name(w, 1) for w in rest):
        return False
    noun = stem_of(rest[0], config)
    texts = (latest.question, *latest.answer_sentences, *latest.cited_texts)
    return bool(noun) and noun not in {t for text in texts for t in terms_of(text, config)}


def _topicless(question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig
               ) -> tuple[str, str] | None:
    """A question with no topic of its own, only what it asks for and its verbs ("which standard is used?", "how
    do I resume?", "how many retries?"), given the previous topic: the object a closing verb after "I" lacks, the
    previous verb's ("pause syncing": resume syncing), else "for" the previous question's verb phrase or topic;
    None for a question with a topic."""
    skipped = topic_skips(words)
    content = [i for i, w in enumerate(words) if is_content(w) and w.lower not in LIGHT_VERBS]
    if not content or any(i not in skipped for i in content) or any(is_name(w, i) for i, w in enumerate(words)):
        return None
    text = END.sub("", question)
    if any(w.lower in SUBJECTS for w in words[:-2]):
        return None  # "how do I sign in?": a verb and its particle, complete
    if len(words) > 1 and words[-2].lower in SUBJECTS:  # "how do I resume?": the previous verb's object
        thing = verb_phrase(history[-1].question, gerund=False).partition(" ")[2] or best_topic(
            history, plural=None, config=config)
        return (f"{text} {thing}", "ellipsis: the object of a closing verb") if thing else None
    about = verb_phrase(history[-1].question, gerund=True) or best_topic(history, plural=None, config=config)
    return (f"{text} for {about}", "ellipsis: a question with no topic of its own") if about else None
