"""Which pronouns of a question point outside it: those with no antecedent in the question itself."""
import re

from answers.pipeline.followups.words import ADVERBS, CLAUSE_OPENERS, PLURAL_PRONOUNS, PREDICATES, TEMPORAL
from answers.pipeline.topics import (
    AUXILIARIES,
    LIGHT_VERBS,
    MODALS,
    PREPOSITIONS,
    REFERRING,
    Word,
    is_content,
    is_participle,
    is_plural,
    not_topic,
)

# "is it possible to ...?", "is it true that ...?"; not "is it free?", where "it" is the thing
_EXPLETIVE = re.compile(
    r"it\s+(?:is\s+)?(?:possible|true|necessary|ok|okay|safe|required|allowed|worth|free)\s+(?:to|that|for|if|whether)\b",
    re.I,
)
_RELATIVES = frozenset({"that", "which", "who"})  # after a noun: a relative clause about that noun


def _clause_start(question: str, words: list[Word], index: int) -> int:
    """The index of the first word of the clause the word at `index` stands in: after the last comma or
    subordinating word before it ("if I delete a file, *can* I restore it")."""
    for i in range(index - 1, 0, -1):
        if words[i].lower in CLAUSE_OPENERS or "," in question[words[i - 1].end : words[i].start]:
            return i
    return 0


def _relative_start(words: list[Word], index: int) -> int | None:
    """The index of the relative pronoun ("that", "which", "who") opening the relative clause the word at `index`
    stands in, right after the content word it hangs on ("files *that* are not shared with them"); None when the
    word stands in no relative clause."""
    for i in range(index - 1, 1, -1):
        if words[i].lower in _RELATIVES and is_content(words[i - 1]) and words[i - 1].lower not in LIGHT_VERBS:
            return i
    return None


def _is_predicate(word: str) -> bool:
    """Whether a word closing the question after "that" says what it is made ("make that *mandatory*"): a predicate
    word or an adjective by its ending, not the verb of a relative clause."""
    return word in PREDICATES or word.endswith(("ory", "able", "ible", "ive", "ful", "less", "ic", "al"))


def _binding_subject(words: list[Word], index: int, start: int, *, plural: bool) -> bool:
    """Whether a possessive ("its", "their") after its clause's verb has that clause's subject for antecedent: a
    noun of its number between the auxiliary and that verb. Unlike "it", a possessive may name its own clause's
    subject, so a question that names that subject before it holds its antecedent. The verb is the word right
    before the possessive ("Where does the desktop app keep *its* synced folder?") or the participle of a passive
    or perfect, the possessive anywhere after it ("Is an annual plan cancelled in *its* first month ...?"); "How do
    I change its expiry?" has only "I" there and points outside."""
    auxiliary = next((j for j in range(start, index) if words[j].lower in AUXILIARIES), None)
    if auxiliary is None:
        return False
    verb = index - 1
    if verb <= auxiliary or not is_content(words[verb]) or words[verb].lower in PREPOSITIONS:
        verb = next((j for j in range(auxiliary + 2, index) if is_participle(words[j])), -1)
        if verb < 0:
            return False
    nouns = [w for w in words[auxiliary + 1 : verb] if is_content(w) and w.lower not in PREPOSITIONS]
    return bool(nouns) and is_plural(nouns[-1].text) == plural


def _own_antecedent(question: str, words: list[Word], index: int, skipped: set[int], *, plural: bool) -> bool:
    """Whether a content word before the pronoun can be what it refers to: the question holds its own antecedent.

    It stands in an earlier clause: within its own clause a pronoun does not name a noun of that clause ("can I put
    a password on it?": not the password; that would be "itself"). For "they/them" it is a plural word, the
    asked-for noun included ("which files ... after I delete them"); for "it" any other content word ("if I delete
    a file, can I restore it?"), but not the asked-for noun ("how many members can it have?").
    """
    start = _clause_start(question, words, index)
    if words[index].lower in ("its", "their") and _binding_subject(words, index, start, plural=plural):
        return True
    relative = _relative_start(words, index) if plural else None
    if relative is not None and relative > start:
        # "Can guests see files that are not shared with them?": a relative clause's plural pronoun may name a plural
        # noun of the clause it hangs on (guests), never the noun it hangs on (files: the relative stands for it)
        start = relative - 1
    for i in range(start):
        word = words[i]
        if not is_content(word) or word.lower in PREPOSITIONS or word.lower in LIGHT_VERBS or is_participle(word):
            continue  # "once *picked*, can it be changed?": a participle names no thing
        asked = i > 0 and words[i - 1].lower in ("which", "what", "many", "much")
        if plural and is_plural(word.text) and (i not in skipped or asked):
            return True
        if not plural and i not in skipped and not is_plural(word.text):  # "my edits while it is off"
            return True
    return False


def pointing_pronouns(words: list[Word], question: str) -> list[int]:
    """Indexes of the pronouns of the question that point outside it."""
    skipped = not_topic(words)
    found = []
    for i, word in enumerate(words):
        w = word.lower
        following = words[i + 1].lower if i + 1 < len(words) else ""
        preceding = words[i - 1].lower if i > 0 else ""
        if w not in REFERRING or (w == "it" and _EXPLETIVE.match(question, word.start)):
            continue  # "is it possible to ...?"
        if w in ("that", "this") and preceding in TEMPORAL and not following:
            continue  # "after that": a time, not a thing
        if w == "there" and (following in AUXILIARIES or preceding in AUXILIARIES):
            continue  # "is there a limit?"
        if w == "one" and ((following and following not in ADVERBS and is_content(words[i + 1])
                            and not is_plural(words[i + 1].text)  # "one expires": its verb, not its noun
                            and not (preceding in AUXILIARIES and is_participle(words[i + 1]))  # "is one created"
                            # "what can one replace at sign-in?": a subject after its modal, a verb and no noun after
                            and not (preceding in MODALS and (i + 2 == len(words) or not is_content(words[i + 2])))
                            and not _closing_participle(words, i + 1))  # "what is the extra one called?"
                           or preceding in ("than", "least", "only", "no")) and preceding not in ("each", "every"):
            continue  # "one file", "more than one"; not "use one twice"
        if (w in ("that", "this") and following and i > 0 and is_content(words[i - 1])
                and following not in PREPOSITIONS  # "require that on every link": no clause opens with "on"
                and (i - 1 not in skipped or following in AUXILIARIES)  # "which files that are shared"
                and not (i + 2 == len(words) and _is_predicate(words[i + 1].lower))
                and not all(x.lower in ADVERBS for x in words[i + 1 :])):  # "turn that off": a particle, no clause
            continue  # "a file that ...": a relative, its antecedent right before it and its clause after it
        if w not in ("there", "that", "this") and _own_antecedent(question, words, i, skipped,
                                                                   plural=w in PLURAL_PRONOUNS):
            continue
        found.append(i)
    return found


def _closing_participle(words: list[Word], index: int) -> bool:
    """Whether the word at `index` is a participle that closes its clause, the predicate of what comes before it,
    not a noun "one" counts ("what is the second one *called*?"; not "one shared folder")."""
    following = words[index + 1] if index + 1 < len(words) else None
    return is_participle(words[index]) and (following is None or not is_content(following))
