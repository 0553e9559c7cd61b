"""Negations said without a negation word (§5.6), rewritten with one so that the polarity check reads a sentence and
its span alike.

Rules callers rely on:

- Always, on either side: "left out of" and "excluded from" read as "not"; "leaves out", "omits" and "exclude(s)"
  as "does not include"; "lacks" as "has no"; "refuses to" and "fails to" as "does not"; "unable to" as "not able
  to".
- A verb that keeps something from happening reads as "not" where the other text negates that very verb: "stops
  visitors from downloading" (or prevents, keeps, bars) as "visitors not downloading" against "visitors cannot
  download"; "stops counting" (or ceases) as "not counting" against "do not count". "Stops working" against
  "expires" is read word for word.
- Always, on either side, a negative subject puts its negation on the predicate, where the claim is: "neither you nor
  support can recover them" reads as "you and support can not recover them", "nobody from support will ask" as
  "support will not ask", "none of your last three passwords can be used" as "your last three passwords can not be
  used", "nobody, not even support, can recover" as "anyone and support can not recover".
- "keeps", "leaves", "retains" or "preserves" read as "does not delete" when the other text says "not delete" (or
  remove, erase) and the text itself writes none of those verbs: "keeps the newer versions" is "does not delete
  newer versions".
- "blocks X that" (or rejects, forbids, prohibits, disallows) reads as "X that not" when the other text writes no
  such verb: "blocks passwords that contain the word" says what "a password may not contain the word" does (and
  "passwords ... are blocked" is read word for word).
- A word that negates its stem by its form reads as that negation where the other text writes the stem and not the
  word: "unstaffed" as "not staffed" against "have staff on site", "blameless" as "no blame", "non-editable" as "not
  editable". "un-" counts before a participle or adjective only ("-ed", "-able", "-ible", "-ful"): "unlock" undoes.
- In a relative clause, "that are not selected stay online" negates "selected" only: a comma closes the clause
  after a past participle that a content word follows.
"""
import functools
import re

from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS

# Words whose meaning holds a negation, said in place of one ("has ended", "stays hidden from", "falls outside",
# "beyond", "instead of", "are lost").
PRIVATIVE_WORDS = (
    r"hidden|outside|off|beyond|ended|lost|absent|missing|exempt|blocked|closed|instead\s+of|out\s+of|away\s+from|"
    r"free\s+of"
)
PRIVATIVE = re.compile(rf"\b(?:{PRIVATIVE_WORDS})\b", re.I)

_AUXILIARIES = "can|could|will|would|may|might|must|shall|should|is|are|was|were|does|do|did|has|have|had|gets?"
_ALWAYS = (
    (re.compile(r"\b(?:left|leaves?|leaving)\s+out\s+of\b|\bexcluded\s+from\b", re.I), "not"),
    (re.compile(r"\b(?:leaves?|left|leaving)\s+out\b|\bomit(?:s|ted)?\b|\bexclude[sd]?\b", re.I), "does not include"),
    (re.compile(r"\black(?:s|ed)?\b", re.I), "has no"),
    (re.compile(r"\b(?:refuse[sd]?|fail(?:s|ed)?)\s+to\b", re.I), "does not"),
    (re.compile(r"\bunable\s+to\b", re.I), "not able to"),
    (re.compile(rf"\bneither\s+((?:[^\W\d_]+\s+){{1,3}}?)nor\s+((?:[^\W\d_]+\s+){{1,3}}?)({_AUXILIARIES})\b", re.I),
     r"\1and \2\3 not"),
    (re.compile(rf"\b(?:nobody|no\s+one|no-one)\s+(?:from|at|in|on)\s+((?:the\s+)?[^\W\d_]+\s+)({_AUXILIARIES})\b",
                re.I), r"\1\2 not"),
    (re.compile(rf"\b(?:nobody|no\s+one|no-one),\s+not\s+even\s+([^,]{{1,40}}),\s+({_AUXILIARIES})\b", re.I),
     r"anyone and \1 \2 not"),

    (re.compile(rf"\bnone\s+of\s+((?:[^\W\d_]+\s+){{1,5}}?)({_AUXILIARIES})\b", re.I), r"\1\2 not"),
)
_PREVENTS = re.compile(
    r"\b(?:(?:stop(?:s|ped|ping)?|prevent(?:s|ed|ing)?|keep(?:s|ing)?|kept|bar(?:s|red|ring)?)\s+"
    r"(?P<who>(?:[^\W\d_]+\s+){1,2}?)from|stop(?:s|ped)?|cease[sd]?)\s+(?P<verb>[^\W\d_]+ing)\b",
    re.I,
)
_KEEP = re.compile(r"\b(?:keeps?|kept|leaves?|retains?|retained|preserves?|preserved)\b", re.I)
_NOT_DELETE = re.compile(
    r"\b(?:not|never|n't)\s+(?:be\s+)?(?:delete[sd]?|remove[sd]?|erase[sd]?)\b|\bcannot\s+(?:delete|remove|erase)\b",
    re.I,
)
_DELETE = re.compile(r"\b(?:delete[sd]?|deleting|remove[sd]?|removing|erase[sd]?|erasing)\b", re.I)
_BLOCKS = re.compile(
    r"\b(?:blocks?|rejects?|forbids?|prohibits?|disallows?)\s+((?:[^\W\d_]+\s+){1,2}?)(that|which|who)\b", re.I
)
_BLOCKING = re.compile(r"\b(?:block|reject|forbid|prohibit|disallow)\w*", re.I)
_RELATIVE = re.compile(r"\b((?:that|which|who)\s+(?:are|is|was|were)\s+not\s+[^\W\d_]+ed)\s+([^\W\d_]+)", re.I)


@functools.lru_cache(maxsize=4096)
def reword_negations(text: str, other: str) -> str:
    """The text with its negations said without a negation word written with one, given the text it is compared
    with (`other`: the span for a sentence, the sentence for a span)."""
    for pattern, replacement in _ALWAYS:
        text = pattern.sub(replacement, text)
    text = _PREVENTS.sub(lambda m: _prevented(m, other), text)
    if _NOT_DELETE.search(other) and not _DELETE.search(text):
        text = _KEEP.sub("does not delete", text)
    if not _BLOCKING.search(other):
        text = _BLOCKS.sub(lambda m: f"{m.group(1)}{m.group(2)} not", text)
    text = _MORPHEMES.sub(lambda m: _said_by_morpheme(m, other), text)
    return _RELATIVE.sub(_close_clause, text)


# A word negating its stem by its form: "blameless" (no blame), "unstaffed" (not staffed), "non-editable". Only
# "un-" before a participle or adjective: before a verb it undoes ("unlock"), no negation.
_MORPHEMES = re.compile(
    r"\b(?:(?P<prefix>un|non-?)(?P<base>[^\W\d_]{2,}(?:ed|able|ible|ful))|(?P<stem>[^\W\d_]{3,})less)\b", re.I
)


def _said_by_morpheme(match: re.Match[str], other: str) -> str:
    """The word as "not <base>" ("unlimited") or "no <stem>" ("blameless") where the other text writes that base or
    stem as a word of its own, and the word itself not: only there is the negation the word holds compared."""
    word = match.group()
    base = match.group("base") or match.group("stem")
    if re.search(rf"\b{re.escape(word)}\b", other, re.I) or not re.search(rf"\b{re.escape(base[:4])}", other, re.I):
        return word
    return f"not {base}" if match.group("base") else f"no {base}"


def _prevented(match: re.Match[str], other: str) -> str:
    """A verb keeping its -ing verb from happening, as "not" where the other text negates that verb's stem."""
    stem = match.group("verb")[:-3].lower()
    stem = stem[:-1] if len(stem) > 4 and stem[-1] == stem[-2] else stem  # "stopping" -> "stop"
    negated = re.search(rf"(?:\b(?:not|never|cannot)|n[’']t)\s+(?:[^\W\d_]+\s+){{0,2}}?{re.escape(stem)}", other, re.I)
    if len(stem) < 3 or not negated:
        return match.group()
    return f"{match.group('who') or ''}not {match.group('verb')}"


def _close_clause(match: re.Match[str]) -> str:
    following = match.group(2)
    if following.lower() in ENGLISH_STOP_WORDS:
        return match.group()  # "that are not synced to desktop": the negation goes on
    return f"{match.group(1)}, {following}"
