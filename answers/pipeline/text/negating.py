"""Negations said without a negation word (§5.6), rewritten with one so that the polarity check reads a sentence and
its span alike.

Rules callers rely on:

- Always, on either side: "left out of" and "excluded from" read as "not"; "leaves out", "omits" and "exclude(s)"
  as "does not include"; "lacks" as "has no"; "refuses to" and "fails to" as "does not"; "unable to" as "not able
  to".
- "keeps", "leaves", "retains" or "preserves" read as "does not delete" when the other text says "not delete" (or
  remove, erase) and the text itself writes none of those verbs: "keeps the newer versions" is "does not delete
  newer versions".
- "blocks X that" (or rejects, forbids, prohibits, disallows) reads as "X that not" when the other text writes no
  such verb: "blocks passwords that contain the word" says what "a password may not contain the word" does (and
  "passwords ... are blocked" is read word for word).
- In a relative clause, "that are not selected stay online" negates "selected" only: a comma closes the clause
  after a past participle that a content word follows.
"""
import functools
import re

from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS

_ALWAYS = (
    (re.compile(r"\b(?:left|leaves?|leaving)\s+out\s+of\b|\bexcluded\s+from\b", re.I), "not"),
    (re.compile(r"\b(?:leaves?|left|leaving)\s+out\b|\bomit(?:s|ted)?\b|\bexclude[sd]?\b", re.I), "does not include"),
    (re.compile(r"\black(?:s|ed)?\b", re.I), "has no"),
    (re.compile(r"\b(?:refuse[sd]?|fail(?:s|ed)?)\s+to\b", re.I), "does not"),
    (re.compile(r"\bunable\s+to\b", re.I), "not able to"),
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
    if _NOT_DELETE.search(other) and not _DELETE.search(text):
        text = _KEEP.sub("does not delete", text)
    if not _BLOCKING.search(other):
        text = _BLOCKS.sub(lambda m: f"{m.group(1)}{m.group(2)} not", text)
    return _RELATIVE.sub(_close_clause, text)


def _close_clause(match: re.Match[str]) -> str:
    following = match.group(2)
    if following.lower() in ENGLISH_STOP_WORDS:
        return match.group()  # "that are not synced to desktop": the negation goes on
    return f"{match.group(1)}, {following}"
