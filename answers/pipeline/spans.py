"""Support spans (§2.7, §5.6): the one or two sentences of a chunk's original text that hold most of a claim's terms."""
import functools
import re
from collections.abc import Collection
from dataclasses import dataclass

from answers.pipeline.evidence import instruction_ranges
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.claims import NEGATION_WORDS, holds_letter
from answers.pipeline.text.sentences import MARKER, is_heading, sentence_spans
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms
from answers.pipeline.text.wording import say_quantities
from answers.pipeline.types import SupportSpan

_MAX_SENTENCES = 2
_NEGATION = re.compile(rf"\b(?:{'|'.join(sorted(NEGATION_WORDS))})\b|n['’]t\b", re.I)
_LISTED_NAMES = 3  # a sentence holding this many of the claim's name terms states its list ("Visa, Mastercard, Amex")


def chunk_sentences(record: ChunkRecord) -> tuple[SentenceSpan, ...]:
    """The chunk's sentences: as stored at ingestion, or split now (with today's instruction rule) for a chunk stored
    before sentences were."""
    return record.sentences or _split_now(record.text)


def support_span(
    terms: Collection[str],
    record: ChunkRecord,
    *,
    tokenizer: TokenizerConfig,
    names: Collection[str] = (),
    letters: Collection[str] = (),
    negated: bool = False,
) -> tuple[SupportSpan, frozenset[str]] | None:
    """The span holding the most of `terms`, and the terms it holds; None when no sentence holds any.

    A span is one sentence or two adjacent ones, never a flagged instruction (§2.8). Words (names among them) count
    first, and numbers only decide between spans as long holding as many words: a number of the claim must not pull
    the span to a sentence about something else that happens to state it (the "4" of standard delivery, for a claim
    that express takes 4 days), so that the numbers check then reads the sentence the claim is about. A sentence
    that holds no more of the claim than names of it (`names`: "Lisbon" in "Returns go to the Lisbon office") adds
    nothing: it is not where the claim is stated, unless it lists three or more of its name terms or, alone, holds
    every name of the claim. Of spans holding as many words, the one holding more of the names wins (a span without
    a name of the claim fails the names check: "only on the Business plan" is stated where "Business" is); then the
    one holding more of `letters`, the claim's letters named as keys or values, which have no terms ("press S",
    "'Y'"); then one sentence over two; then, for a claim that negates (`negated`), a span that negates too ("gets
    nothing back for the months left" is said where "receives no refund" is, not where "receives a full refund" is);
    then the earlier.
    A heading line ("AFTER THE INCIDENT") is no claim: never part of a span, so it never supplies a word.
    """
    wanted = frozenset(terms)
    numbers = frozenset(term for term in wanted if term[:1].isdigit())
    named = frozenset(names)
    sentences = chunk_sentences(record)
    read = _sentences_read(record, tokenizer)
    own = [stated & wanted for stated in read.terms]
    held = [_held(stated, wanted, named) for stated in own]
    lettered = [sum(holds_letter(text, letter) for letter in letters) for text in read.texts]
    negating = read.negating if negated else (False,) * len(sentences)
    barred = read.barred
    # (words, names, letters, -sentences, negates, numbers, -first)
    best: tuple[int, int, int, int, int, int, int] | None = None
    for first in range(len(sentences)):
        if barred[first]:
            continue
        for count in range(1, _MAX_SENTENCES + 1):
            last = first + count - 1
            if last >= len(sentences) or barred[last]:
                break
            union = frozenset().union(*held[first : last + 1])
            if count == 1 and not union and named and named <= own[first]:
                union = own[first]  # alone, a sentence naming every name of the claim states it: "only on Business"
            letters_held = sum(lettered[first : last + 1])
            negates = int(any(negating[first : last + 1]))
            key = (
                len(union - numbers), len(union & named), letters_held, -count, negates, len(union & numbers), -first
            )
            if union and (best is None or key > best):
                best = key
    if best is None:
        return None
    first, count = -best[6], -best[3]
    chosen = sentences[first : first + count]
    start, end = chosen[0].start, chosen[-1].end
    numbered = tuple(range(first + 1, first + count + 1))
    taken = frozenset().union(*held[first : first + count]) or own[first]
    return SupportSpan(start, end, numbered, record.text[start:end]), taken


def _held(own: frozenset[str], wanted: frozenset[str], named: frozenset[str]) -> frozenset[str]:
    held = own & wanted
    return held if held - named or held == wanted or len(held) >= _LISTED_NAMES else frozenset()


@dataclass(frozen=True)
class _Read:
    """A chunk's sentences as the span search reads them: text, terms, whether each negates, whether each is barred
    from a span (an instruction, or a heading line outside a list)."""

    texts: tuple[str, ...]
    terms: tuple[frozenset[str], ...]
    negating: tuple[bool, ...]
    barred: tuple[bool, ...]


# Every sentence of an answer is checked against the same few chunks: read each chunk's sentences once.
@functools.lru_cache(maxsize=256)
def _sentences_read(record: ChunkRecord, tokenizer: TokenizerConfig) -> _Read:
    sentences = chunk_sentences(record)
    texts = tuple(record.text[s.start : s.end] for s in sentences)
    return _Read(
        texts,
        tuple(_terms_of(text, tokenizer) for text in texts),
        tuple(_NEGATION.search(text) is not None for text in texts),
        tuple(
            s.instruction or (not s.list_item and (is_heading(t) or _is_title(t, record.source_title)))
            for s, t in zip(sentences, texts, strict=True)
        ),
    )


def _is_title(text: str, title: str) -> bool:
    """Whether a sentence is the page's title written as a line of the chunk ("Upload limits (2024 guide)"): a
    heading, though it holds a digit or ends on a bracket."""
    return bool(title) and " ".join(text.split()).casefold() == " ".join(title.split()).casefold()


# Every sentence of an answer is checked against the same few chunks: tokenize each chunk sentence once.
@functools.lru_cache(maxsize=4096)
def _terms_of(text: str, tokenizer: TokenizerConfig) -> frozenset[str]:
    return frozenset(significant_terms(say_quantities(MARKER.sub(" ", text)), tokenizer))


@functools.lru_cache(maxsize=256)
def _split_now(text: str) -> tuple[SentenceSpan, ...]:
    flagged = instruction_ranges(text, ())
    return tuple(
        SentenceSpan(start, end, text.count("\n", 0, start) + 1, any(a < end and start < b for a, b in flagged))
        for start, end in sentence_spans(text)
    )
