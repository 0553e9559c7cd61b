"""The one table of synonyms: word forms that say the same thing in the help pages' sense, so that one written for
the other is a rewording, never a swap ("Storage is shared across the workspace" for "pooled across"); and phrases
that say one word ("turns requests away" for "rejects requests"), which the verifier reads as that word."""
import functools
import re

from answers.pipeline.text.tokens import TokenizerConfig, significant_terms

SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("pooled", "pool", "pools", "shared", "share", "shares"),
    ("whole", "entire"),
    ("anywhere", "everywhere"),
    ("extend", "extends", "extended", "lengthen", "lengthens", "lengthened", "prolong", "prolongs"),
    ("begin", "begins", "start", "starts", "started", "begun", "began"),
    ("finish", "finishes", "finished", "end", "ends", "ended"),
    ("choose", "chooses", "chose", "chosen", "pick", "picks", "picked"),
    ("yearly", "annual", "annually"),
    ("previous", "old", "older"),
    ("partial", "partly"),
    ("offered", "available"),
    ("cover", "covers", "covered", "apply", "applies", "applied"),
)

# Phrases that say one word of the table's sense, read as that word wherever a polarity is checked, so that a phrase
# and its word are one term: "put the trial on hold" is "pause the trial" ("The trial cannot be paused" denies it).
# Each entry: the phrase as a pattern, whose group `kept` (a verb before the phrase) stays in front of the word and
# whose group `object` (a verb's object written inside the phrase: "put {the trial} on hold") goes after it.
PHRASES: tuple[tuple[str, str], ...] = (
    (r"(?:put|puts|putting)\s+(?P<object>(?:[^\W\d_]+\s+){0,3}?)on\s+hold", "pause"),
    (r"(?P<kept>is|are|be|been|was|were)\s+on\s+hold", "paused"),
    (r"(?:costs?|costing)\s+nothing", "is free"),
    (r"there\s+is\s+no\s+charge", "free"),
    (r"free\s+of\s+charge", "free"),
    (r"(?:move|moves|moving|moved)\s+down\s+(?P<object>from\s+[^\W\d_]+\s+)", "a downgrade"),
    (r"(?:move|moves|moving|moved)\s+(?P<object>from\s+[^\W\d_]+\s+)down\s+", "a downgrade"),
    (r"(?:move|moves|moving|moved)\s+up\s+(?P<object>from\s+[^\W\d_]+\s+)", "an upgrade"),
    (r"(?:move|moves|moving|moved)\s+(?P<object>from\s+[^\W\d_]+\s+)up\s+", "an upgrade"),
    (r"(?:turn|turns|turning|turned)\s+(?P<object>(?:[^\W\d_]+\s+){0,3}?)away", "reject"),
    (r"(?:go|goes|going|went)\s+over", "exceed"),
    (r"(?:come|comes|coming|came)\s+back", "is restored"),
    (r"(?:go|goes|going|went)\s+back\s+(?:to|into)", "returns to"),
    (r"(?:run|runs|running|ran)\s+out(?!\s+of\b)", "expires"),
    (r"out\s+of\s+the\s+box", "by default"),
    (r"(?:paid|pay|pays|paying)\s+back", "refunded"),
    (r"(?:given|give|gives|giving|gave)\s+back", "refunded"),
    (r"(?:bring|brings|bringing|brought)\s+(?P<object>(?:[^\W\d_]+\s+){0,3}?)back", "restore"),
    (r"(?:bring|brings|bringing|brought)\s+back", "restore"),
    (r"(?:get|gets|getting|got)\s+(?P<object>(?:[^\W\d_]+\s+){0,3}?)back", "recover"),
    (r"(?:wipe|wipes|wiping|wiped)\s+(?P<object>(?:[^\W\d_]+\s+){0,3}?)out", "delete"),
    (r"(?:wipe|wipes|wiping|wiped)\s+out", "delete"),
    (r"(?:is|are|stays?|remains?)\s+fixed(?=\s*(?:[.,;:]|$))", "cannot be changed"),
    (r"in\s+place\s+of", "instead of"),
    (r"(?:can[’']t|cannot|can\s+not)\s+be\s+undone", "is permanent"),
    (r"(?:takes?|taking|took)\s+effect\s+at\s+once", "is immediate"),
    (r"a\s+stretch\s+of\s+time", "a period of time"),
    (r"each\s+time", "every"),
    (r"(?:stay|stays|stayed|staying)\s+put", "are kept"),
    (r"(?<!by\s)(?<!\bno\s)means(?!\s+of\b)", "is"),
)
_PHRASES = tuple((re.compile(rf"\b{pattern}\b", re.I), word) for pattern, word in PHRASES)
# Any phrase of the table, its groups unnamed: most sentences hold none and are read once.
_ANY_PHRASE = re.compile("|".join(rf"\b(?:{re.sub(r'[?]P<[a-z]+>', '?:', pattern)})\b" for pattern, _ in PHRASES), re.I)


@functools.lru_cache(maxsize=4096)
def reword_phrases(text: str, other: str = "") -> str:
    """The text with each phrase of the table said as its word ("can put the trial on hold" -> "can pause the
    trial"; "are on hold" -> "are paused"), but for a phrase the text it is compared with (`other`) writes too: that
    one is read word for word on both sides ("each time a file changes" quoted from a span that says it)."""
    if not _ANY_PHRASE.search(text):
        return text
    written = _written_phrases(other)
    for i, (pattern, word) in enumerate(_PHRASES):
        if i not in written:
            text = pattern.sub(functools.partial(_said_as, word=word), text)
    return text


@functools.lru_cache(maxsize=1024)
def _written_phrases(text: str) -> frozenset[int]:
    """Which phrases of the table a text writes (by their place in it): a chunk's text is searched once per answer."""
    return frozenset(i for i, (pattern, _) in enumerate(_PHRASES) if pattern.search(text))


def _said_as(match: re.Match[str], *, word: str) -> str:
    found, written = match.groupdict(), match.group()
    parts = (found.get("kept") or "", word, (found.get("object") or "").strip())
    return " ".join(part for part in parts if part) + written[len(written.rstrip()) :]


def same_meaning(said: str, stated: str, tokenizer: TokenizerConfig) -> bool:
    """Whether two terms (as the tokenizer reads them) are forms of one entry of the table, or the same term."""
    return said == stated or any(said in group and stated in group for group in _groups(tokenizer))


def synonym_terms(terms: frozenset[str], tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the synonyms of `terms` ("lengthen" -> "extend"), so that a span saying the claim in them is
    found and shares its terms."""
    return frozenset(term for group in _groups(tokenizer) if group & terms for term in group) - terms


@functools.lru_cache(maxsize=8)
def tabled_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """Every term of the table: a term outside it has no synonym, so it means only itself."""
    return frozenset(term for group in _groups(tokenizer) for term in group)


@functools.lru_cache(maxsize=8)
def _groups(tokenizer: TokenizerConfig) -> tuple[frozenset[str], ...]:
    """Each entry as terms: read once per tokenizer."""
    return tuple(frozenset(term for form in group for term in significant_terms(form, tokenizer)) for group in SYNONYMS)
