"""Negations the polarity check of shared terms does not settle: a sentence negating only words its span never writes
while the span negates nothing, a two-sentence span whose closer sentence negates what the sentence affirms, and a
sentence affirming a word its span lacks that the issued evidence around the span negates."""
import functools
import re
from collections.abc import Callable, Sequence

from answers.pipeline.records import ChunkRecord
from answers.pipeline.spans import chunk_sentences
from answers.pipeline.text.claims import NEGATION_WORDS, Claims, read_claims
from answers.pipeline.text.negating import PRIVATIVE_WORDS, reword_negations
from answers.pipeline.text.sentences import split_sentences
from answers.pipeline.text.synonyms import reword_phrases
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms
from answers.pipeline.text.wording import antonym_terms
from answers.pipeline.types import SupportSpan

_NEGATION = re.compile(rf"(?i)\b(?:{'|'.join(sorted(NEGATION_WORDS))})\b|n[’']t\b")


def negation_problems(
    n: int,
    sentence: str,
    claims: Claims,
    span: SupportSpan,
    record: ChunkRecord,
    tokenizer: TokenizerConfig,
    elsewhere: Callable[[], Sequence[str]] = tuple,
) -> list[str]:
    """Why citation [n]'s span, or the issued evidence outside it (`elsewhere`), does not bear out the sentence's
    negations; empty when it does."""
    stated = read_claims(reword_phrases(reword_negations(span.quote, sentence), sentence), tokenizer)
    said = reword_phrases(reword_negations(sentence, span.quote), span.quote)
    claims = claims if said == sentence else read_claims(said, tokenizer)
    return (
        (_unstated(n, claims, stated, tokenizer) if not _conditional_only(said, tokenizer) else [])
        or _closer_sentence(n, claims, span, record, tokenizer)
        or _denied_elsewhere(n, claims, stated, elsewhere, tokenizer)
        or _also_of_exempted(n, sentence, span, record, tokenizer)
        or _privative_beside(n, sentence, span, record, tokenizer)
    )


# A word holding a negation said as the predicate ("are lost", "stays hidden"), not as an attribute ("a lost phone",
# "switch off the button").
_PREDICATIVE = re.compile(
    rf"(?i)\b(?:is|are|was|were|be|been|being|get|gets|got|gone|stay|stays|remain|remains)\s+(?:\w+ly\s+)?"
    rf"(?:{PRIVATIVE_WORDS})\b"
)

_CONDITION = re.compile(r"(?i)\b(?:if|when|whenever|once|unless|until|while)\b[^,;]*")


def _privative_beside(
    n: int, sentence: str, span: SupportSpan, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """A sentence saying a negation by a word that holds one ("are lost") and no negation word, on a span that
    negates nothing, where another sentence of the cited chunk negates with two or more of the sentence's terms:
    that sentence, not the span, says whether it holds ("Edits saved after that version are lost when you restore
    it" on "The restored copy is saved as a new version", beside "Restoring a version does not delete newer
    versions")."""
    said = _CONDITION.sub("", sentence)  # "If your phone is lost, ...", "... when a token is missing" state no loss
    if not _PREDICATIVE.search(said) or _NEGATION.search(reword_negations(sentence, span.quote)):
        return []
    if any(_NEGATION.search(text) for text in _span_texts(span, record)):
        return []
    terms = frozenset(significant_terms(sentence, tokenizer))
    inside = set(span.sentences)
    for i, s in enumerate(chunk_sentences(record), start=1):
        text = record.text[s.start : s.end]
        if i in inside or not _NEGATION.search(text):
            continue
        if len(terms & frozenset(significant_terms(text, tokenizer))) >= 2:
            return [f'[{n}] says "{text.strip()}"; the sentence says it otherwise, without a negation']
    return []


def _conditional_only(sentence: str, tokenizer: TokenizerConfig) -> bool:
    """Whether every negation of the sentence is in a condition of it, which the claim depends on and does not state
    ("If an upload does not succeed, the web app puts a Retry button beside it"), or in an opening clause closed by a
    colon, which the rest spells out ("Admins don't have to wait: they can unlock a member")."""
    if not _NEGATION.search(sentence):
        return False
    rest = _LEADING_CONDITION.sub("", sentence, count=1)
    return _NEGATION.search(_LEADING_FRAME.sub("", rest, count=1)) is None


# A condition the sentence opens with, closed by its comma ("If seven days doesn't suit you, ..."); without the comma
# ("Once an invitation has expired it cannot be resent") its end is not told, and nothing is set apart.
_LEADING_CONDITION = re.compile(r"(?i)^\s*(?:if|when|whenever|once|unless|until|while)\b[^,;]*,")
# An opening clause closed by a colon, which the rest of the sentence spells out ("Admins don't have to wait: they can
# unlock a member"): the rest is the claim the span must bear out, and a negation of words the span never writes in
# the opening clause alone is its framing. (A colon between digits, "10:00", closes nothing.)
_LEADING_FRAME = re.compile(r"^[^:;]*:(?=\s)")


# An additive particle says the subject shares what is said of another: "Guests have to set it up as well".
_ADDITIVE = re.compile(r"(?i)\b(?:as\s+well|too|also|likewise|either)\b")
_ARTICLE = re.compile(r"(?i)^(?:a|an|the)\s+")


def _also_of_exempted(
    n: int, sentence: str, span: SupportSpan, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """An affirmed sentence that says its subject shares a predicate ("as well", "too", "also") where the span names
    that subject only in a sentence that negates: "Guests have to set up 2FA as well once it's required" against
    "members without 2FA must set it up ... Guests are not affected by this setting"."""
    if not _ADDITIVE.search(sentence) or _NEGATION.search(reword_negations(sentence, span.quote)):
        return []
    # an article before the subject is no word of its own: "A private folder can go into the widget as well"
    opening = _ARTICLE.sub("", sentence.lstrip(), count=1)
    terms, first = significant_terms(opening, tokenizer), significant_terms(opening.split(maxsplit=1)[0], tokenizer)
    if not terms or first[:1] != terms[:1]:
        return []  # the sentence opens with no subject of its own: "You can also cap a link", "There's also"
    subject = terms[0]
    naming = [text for text in _span_texts(span, record) if subject in significant_terms(text, tokenizer)]
    if not naming or not all(_NEGATION.search(reword_negations(text, sentence)) for text in naming):
        return []
    return [f'[{n}] says "{naming[0].strip()}"; the sentence says the same of it as of the others']


def _negated(claims: Claims) -> frozenset[str]:
    return frozenset(term for term, polarity in claims.polarity.items() if True in polarity)


def _affirmed(claims: Claims) -> frozenset[str]:
    return frozenset(term for term, polarity in claims.polarity.items() if polarity == frozenset({False}))


def _unstated(n: int, claims: Claims, stated: Claims, tokenizer: TokenizerConfig) -> list[str]:
    """A sentence that negates only words its span never writes, nor their opposites, where the span negates
    nothing: "is not told when the account is locked" against "receives an email when the account is locked" ("is
    not open" is borne out by "is closed")."""
    denied = _negated(claims) - claims.trailing
    if not denied or denied & stated.terms or _negated(stated) or antonym_terms(denied, tokenizer) & stated.terms:
        return []
    return [f"[{n}] states no negation; the sentence negates \"{_written(denied, claims)}\""]


def _closer_sentence(
    n: int, claims: Claims, span: SupportSpan, record: ChunkRecord, tokenizer: TokenizerConfig
) -> list[str]:
    """In a two-sentence span, the sentence holding more of the sentence's terms negates two or more terms the
    sentence affirms ("Members who use single sign-on do not have a Lumora password" before "Owners keep a Lumora
    password", against "Members who use single sign-on also keep a Lumora password")."""
    texts = _span_texts(span, record)
    if len(texts) != 2:
        return []
    read = [read_claims(text, tokenizer) for text in texts]
    closer = max(read, key=lambda stated: len(stated.terms & claims.terms))
    if all(len(stated.terms & claims.terms) == len(closer.terms & claims.terms) for stated in read):
        return []
    denied = _negated(closer) & _affirmed(claims)
    if len(denied) < 2:
        return []
    return [f'[{n}] negates "{_written(denied, claims)}"; the sentence affirms it']


def _denied_elsewhere(
    n: int, claims: Claims, stated: Claims, elsewhere: Callable[[], Sequence[str]], tokenizer: TokenizerConfig
) -> list[str]:
    """A word the sentence affirms and its span does not write, which a sentence of the issued evidence outside the
    span negates with another word the sentence affirms, more than half of that sentence in the sentence's words:
    "can change the currency afterwards" against "The currency cannot be changed later" beside a span about the
    billing contact. A word written before a negated passive ("currency") counts as negated there."""
    affirmed = _affirmed(claims)
    missing = affirmed - stated.terms
    if not missing:
        return []
    for text in elsewhere():
        for other, reworded in _negating_sentences(text):
            there = read_claims(reworded, tokenizer)
            if len(there.terms & claims.terms) * 2 <= len(there.terms):
                continue
            denied = (_negated(there) | there.trailing) & affirmed
            if len(denied) >= 2 and denied & (missing | _names_unwritten(denied, claims, there, other, stated)):
                return [f'[{n}] says elsewhere "{other.strip()}"; the sentence affirms "{_written(denied, claims)}"']
    return []


@functools.lru_cache(maxsize=1024)
def _negating_sentences(text: str) -> tuple[tuple[str, str], ...]:
    """The text's sentences that hold a negation word once their negations said without one are reworded (the only
    ones that can negate), each as written and reworded (its phrases said as the synonyms table's words too): split
    once per text."""
    reworded = ((other, reword_phrases(reword_negations(other, ""))) for other in split_sentences(text))
    return tuple((other, said) for other, said in reworded if _NEGATION.search(said))


def _names_unwritten(
    terms: frozenset[str], claims: Claims, there: Claims, other: str, stated: Claims
) -> frozenset[str]:
    """The terms the sentence writes capitalised and that sentence writes as a name (capitalised past its first
    word: "the Team plan"), where the span never writes that name, though it may write the word ("the platform
    team")."""
    first = other.split(maxsplit=1)[0] if other.split() else ""
    return frozenset(
        term for term in terms
        if (word := there.written.get(term, ""))[:1].isupper() and word != first
        and claims.written.get(term, "")[:1].isupper()
        and re.search(rf"(?<!\w){re.escape(word)}(?!\w)", stated.text) is None
    )


def _span_texts(span: SupportSpan, record: ChunkRecord) -> list[str]:
    sentences = chunk_sentences(record)
    return [record.text[s.start : s.end] for i, s in enumerate(sentences, start=1) if i in span.sentences]


def _written(terms: frozenset[str], claims: Claims) -> str:
    return " ".join(sorted(claims.written.get(term, term) for term in terms))
