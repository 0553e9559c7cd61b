"""The previous question's verb phrase, for "do that", "that" as an object and a thin question."""
import re

from answers.pipeline.followups.words import ADVERBS, END, PRO_VERBS, TEMPORAL
from answers.pipeline.topics import (
    AUXILIARIES,
    DETERMINERS,
    LIGHT_VERBS,
    MODALS,
    PREPOSITIONS,
    QUESTION_WORDS,
    SUBJECTS,
    Word,
    is_content,
    is_name,
    is_plural,
    words_of,
)

# Words that take an object and are in no other list: "told *about* that"
_OBJECT_PREPOSITIONS = frozenset({"about", "of", "to", "against", "into"})


def verb_phrase(previous: str, *, gerund: bool, light: bool = False) -> str:
    """The verb phrase of a question asked as "I/we" ("Can I *pause syncing*?") or as "who can ..." ("Who can
    *restore files from the trash*?"), its verb as a gerund if asked ("emptying the trash"); "" when the question
    has no such subject, or its verb is a light one ("get a refund") and `light` is not asked for."""
    words = words_of(previous)
    for i, word in enumerate(words[:-1]):
        subject = word.lower in SUBJECTS and i > 0 and words[i - 1].lower in AUXILIARIES
        asker = word.lower in MODALS and i > 0 and words[i - 1].lower == "who"
        if (subject or asker) and is_content(words[i + 1]) and (light or words[i + 1].lower not in LIGHT_VERBS):
            verb = words[i + 1].text
            return (gerund_of(verb) if gerund else verb) + END.sub("", previous[words[i + 1].end :])
    return ""


def has_own_subject(words: list[Word], do: int) -> bool:
    """Whether "do that" has a subject of its own right before it, after a modal: one or two content words, maybe
    after a determiner ("can *guests* do that?", "can *workspace admins* do that?", "can *a guest* do that?")."""
    start = do - 1
    while start > 0 and do - start < 2 and is_content(words[start - 1]) and words[start - 1].lower not in MODALS:
        start -= 1
    if start > 0 and words[start - 1].lower in DETERMINERS:
        start -= 1
    return start >= 1 and start < do and words[start - 1].lower in MODALS and is_content(words[do - 1])


def verb_phrase_after_subject(previous: str) -> str:
    """The verb phrase of a question asked as "<modal> <noun> <verb> ..." ("Can members *empty their own trash*?",
    "Can the owner *delete the workspace*?"), for a "can X do that?" naming another subject; "" for another shape
    or a word after the noun that looks plural (no verb: "Can Business users ...")."""
    words = words_of(previous)
    if len(words) < 4 or words[0].lower not in MODALS or words[0].lower in PRO_VERBS:
        return ""
    head = 2 if words[1].lower in DETERMINERS else 1
    verb = words[head + 1] if head + 1 < len(words) else None
    if (verb is None or not is_content(words[head]) or words[head].lower in SUBJECTS or not is_content(verb)
            or verb.lower in LIGHT_VERBS or is_plural(verb.text) or is_name(verb, head + 1)):
        return ""
    return END.sub("", previous[verb.start :])


def gerund_of(verb: str) -> str:
    """The -ing form of a verb by its spelling ("empty" -> "emptying", "lock" -> "locking", "stop" -> "stopping")."""
    lower = verb.lower()
    if lower.endswith("ie"):
        return verb[:-2] + "ying"
    if lower.endswith("e") and not lower.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", lower):  # one syllable ending consonant-vowel-consonant
        return verb + verb[-1] + "ing"
    return verb + "ing"


def adverbs_only(rest: list[Word]) -> bool:
    """Whether the words after "do that" add only adverbs or a phrase opening with a preposition."""
    return all(w.lower in ADVERBS for w in rest) or rest[0].lower in PREPOSITIONS


def in_object_position(words: list[Word], index: int) -> bool:
    """Whether the pronoun at `index` is the object of a verb or a preposition ("turn *that* off", "avoid *that*",
    "about *that*"), not a subject after an auxiliary ("is *that* free?") nor "do that"."""
    preceding = words[index - 1].lower
    if preceding in AUXILIARIES or preceding in QUESTION_WORDS or preceding in PRO_VERBS or preceding in TEMPORAL:
        return False
    return is_content(words[index - 1]) or preceding in PREPOSITIONS or preceding in _OBJECT_PREPOSITIONS
