"""Words the verifier reads beyond their terms (§5.6): quantity phrases said two ways, antonyms, and a text's content
words in order, for aligning a sentence with its support span.

Rules callers rely on:

- "a single time", "one time", "only one time" and a counting "once" ("works only once", "once a day", "used
  once.") all read as "one time"; "twice" reads as "two times". A "once" that starts a clause ("once the team
  approves") or means "immediately" ("at once") is left alone.
- Antonyms are the word-by-word pairs of the one opposites table (text/opposites.py: open/closed, free/paid,
  before/after, ...): one side of a pair states the other's opposite.
- A role noun ("admin", "owner", "team", "plan", ...) names who acts or a kind of thing; "admin" and
  "administrator" are one role (`role_of`). A kind noun ("page", "address", "setting", ...) is one whose kind the
  word before it names (`names_kind`: "Billing page", "billing address"; role nouns too).
- "whenever they like" (want, wish, please, choose; any pronoun) reads as "at any time", and "straight away" and
  "right away" as "immediately": a time said two ways.
- `content_words` lists a text's words and numbers in order as (term, word as written): stop words left out, but for
  antonyms ("before", "more"), so that "before" and "after" stay visible to an alignment.
"""
import functools
import re
from dataclasses import dataclass

from answers.pipeline.text.opposites import word_pairs
from answers.pipeline.text.sentences import MARKER
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, TokenizerConfig, tokenize

_ONE_TIME = re.compile(
    r"\b(?:only\s+|just\s+|exactly\s+)?(?:a\s+single|one\s+single|one)\s+time\b(?!s)"
    r"|(?<!\bat )\b(?:(?:only|just|exactly)\s+)?once(?=\s*(?:[.,;:!?)]|$|\s+(?:a|an|per|every|each)\b))"
    r"|\b(?:only|just|exactly)\s+once\b",
    re.I,
)
_TWO_TIMES = re.compile(r"\btwice\b", re.I)
_ANY_TIME = re.compile(
    r"\bwhenever\s+(?:they|you|we|he|she|one)\s+(?:like|likes|want|wants|wish|wishes|please|pleases|choose|chooses)\b",
    re.I,
)
_AT_ONCE = re.compile(r"\b(?:(?:straight|right)\s+away|right\s+then|then\s+and\s+there|there\s+and\s+then)\b", re.I)

_ANTONYM_PAIRS = word_pairs()
ANTONYMS: dict[str, frozenset[str]] = {}
for _one, _other in _ANTONYM_PAIRS:
    for _form in _one:
        ANTONYMS[_form] = frozenset(_other)
    for _form in _other:
        ANTONYMS[_form] = frozenset(_one)
# Nouns that name who does something, or a kind of thing a document sets apart by a word before it ("billing team",
# "Business plan"); the words of one group name the same.
_ROLE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("admin", "admins", "administrator", "administrators"),
    ("owner", "owners"),
    ("member", "members"),
    ("user", "users"),
    ("guest", "guests"),
    ("team", "teams"),
    ("lead", "leads", "leader", "leaders"),
    ("manager", "managers"),
    ("commander", "commanders"),
    ("customer", "customers", "client", "clients"),
    ("partner", "partners"),
    ("engineer", "engineers"),
    ("crew", "crews"),
    ("clerk", "clerks"),
    ("agent", "agents"),
    ("staff",),
    ("plan", "plans"),
    ("tier", "tiers"),
    ("department", "departments"),
)
# Nouns a document names kinds of by the word before them ("Billing page", "billing address", "operating system
# setting", "rolling window"): a sentence putting another word there names another thing, as with a role noun.
_KIND_HEADS = (
    "page", "pages", "address", "addresses", "setting", "settings", "window", "permission", "permissions", "channel",
    "mode", "region", "app", "apps", "scope", "header", "link", "links", "tab", "menu", "button", "dialog", "report",
    "method", "currency", "language", "languages", "system", "endpoint", "endpoints", "folder", "console", "contact",
)
_SIDE = {form: side for pair in _ANTONYM_PAIRS for side in pair for form in side}
_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_][^\W_]*")


def say_quantities(text: str) -> str:
    """The text with its quantity phrases said one way: "a single time" and a counting "once" -> "one time";
    "whenever they like" -> "at any time"; "straight away", "right away" and "right then" -> "immediately"."""
    lowered = text.lower()
    if "whenever" in lowered:
        text = _ANY_TIME.sub("at any time", text)
    if "away" in lowered or "then" in lowered:
        text = _AT_ONCE.sub("immediately", text)
    if "time" not in text and "once" not in lowered and "twice" not in lowered:
        return text
    return _TWO_TIMES.sub("two times", _ONE_TIME.sub("one time", text))


def antonym_side(word: str) -> tuple[str, ...]:
    """The forms of the word's side of an antonym pair ("opened" -> open, opens, opened); empty for other words."""
    return _SIDE.get(word.lower(), ())


def antonym_terms(terms: frozenset[str], tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the antonyms of `terms` ("open" -> "close"), so that a span stating the opposite is found."""
    found: set[str] = set()
    for side, opposite in _antonym_stems(tokenizer):
        if side & terms:
            found.update(opposite)
    return frozenset(found)


@functools.lru_cache(maxsize=8)
def _antonym_stems(tokenizer: TokenizerConfig) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each side of each pair as terms, with the other side's terms: read once per tokenizer."""
    def stems(forms: tuple[str, ...]) -> frozenset[str]:
        return frozenset(term for form in forms for term in tokenize(form, tokenizer))

    return tuple(
        (stems(side), stems(opposite))
        for one, other in _ANTONYM_PAIRS
        for side, opposite in ((one, other), (other, one))
    )


@functools.lru_cache(maxsize=8)
def _roles(tokenizer: TokenizerConfig) -> dict[str, int]:
    return {term: i for i, group in enumerate(_ROLE_GROUPS) for form in group for term in tokenize(form, tokenizer)}


def role_of(term: str, tokenizer: TokenizerConfig) -> int | None:
    """Which group of role nouns a term names ("admin" and "administr" the same), or None for any other term."""
    return _roles(tokenizer).get(term)


@functools.lru_cache(maxsize=8)
def _kind_heads(tokenizer: TokenizerConfig) -> frozenset[str]:
    return frozenset(term for form in _KIND_HEADS for term in tokenize(form, tokenizer))


def names_kind(term: str, tokenizer: TokenizerConfig) -> bool:
    """Whether a term is a noun whose kind the word before it names: a role noun ("team") or a thing a document
    sets apart so ("page" of "Billing page", "address" of "billing address")."""
    return role_of(term, tokenizer) is not None or term in _kind_heads(tokenizer)


@dataclass(frozen=True)
class Word:
    """A content word of a text: its term (a stem, a number, or an antonym's lower-cased form) and how it was
    written."""

    term: str
    written: str


@functools.lru_cache(maxsize=4096)
def content_words(text: str, tokenizer: TokenizerConfig) -> tuple[Word, ...]:
    """The text's content words and numbers in order (citation markers left out, quantity phrases said one way)."""
    words: list[Word] = []
    for match in _WORD.finditer(say_quantities(MARKER.sub(" ", text))):
        written = match.group()
        lowered = written.lower()
        if lowered in _SIDE and lowered in ENGLISH_STOP_WORDS:
            words.append(Word(lowered, written))
            continue
        words.extend(Word(term, written) for term in word_terms(written, tokenizer))
    return tuple(words)


@functools.lru_cache(maxsize=8192)
def word_terms(word: str, tokenizer: TokenizerConfig) -> tuple[str, ...]:
    """The terms of one word as the tokenizer reads it (cached: the same words recur in every answer)."""
    return tuple(tokenize(word, tokenizer))


@functools.lru_cache(maxsize=1024)
def phrases(text: str, tokenizer: TokenizerConfig, longest: int = 4) -> frozenset[tuple[str, ...]]:
    """Every run of one to `longest` consecutive content-word terms of the text, within a sentence or line."""
    found: set[tuple[str, ...]] = set()
    for part in re.split(r"[.!?]\s|\n", text):
        terms = [word.term for word in content_words(part, tokenizer)]
        for size in range(1, longest + 1):
            found.update(tuple(terms[i : i + size]) for i in range(len(terms) - size + 1))
    return frozenset(found)
