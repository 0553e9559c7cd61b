"""Support spans (§2.7, §5.6): the one or two sentences of a chunk's original text that hold most of a claim's terms."""
import functools
from collections.abc import Collection

from answers.pipeline.evidence import instruction_ranges
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.sentences import MARKER, sentence_spans
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms
from answers.pipeline.text.wording import say_quantities
from answers.pipeline.types import SupportSpan

_MAX_SENTENCES = 2


def chunk_sentences(record: ChunkRecord) -> tuple[SentenceSpan, ...]:
    """The chunk's sentences: as stored at ingestion, or split now (with today's instruction rule) for a chunk stored
    before sentences were."""
    return record.sentences or _split_now(record.text)


def support_span(
    terms: Collection[str], record: ChunkRecord, *, tokenizer: TokenizerConfig, names: Collection[str] = ()
) -> tuple[SupportSpan, frozenset[str]] | None:
    """The span holding the most of `terms`, and the terms it holds; None when no sentence holds any.

    A span is one sentence or two adjacent ones, never a flagged instruction (§2.8). Words (names among them) count
    first, then one sentence wins over two, and numbers only decide between spans as long holding as many words: a
    number of the claim must not pull the span to a sentence about something else that happens to state it (the "4"
    of standard delivery, for a claim that express takes 4 days), so that the numbers check then reads the sentence
    the claim is about. A sentence that holds no more of the claim than names of it (`names`: "Lisbon" in "Returns go
    to the Lisbon office") adds nothing: it is not where the claim is stated. Of spans equal in all of that, the
    earlier wins.
    """
    wanted = frozenset(terms)
    numbers = frozenset(term for term in wanted if term[:1].isdigit())
    named = frozenset(names)
    sentences = chunk_sentences(record)
    held = [_held(_terms_of(record.text[s.start : s.end], tokenizer), wanted, named) for s in sentences]
    best: tuple[int, int, int, int] | None = None  # (words held, -sentence count, numbers held, -first sentence)
    for first, span in enumerate(sentences):
        if span.instruction:
            continue
        for count in range(1, _MAX_SENTENCES + 1):
            last = first + count - 1
            if last >= len(sentences) or sentences[last].instruction:
                break
            union = frozenset().union(*held[first : last + 1])
            key = (len(union - numbers), -count, len(union & numbers), -first)
            if union and (best is None or key > best):
                best = key
    if best is None:
        return None
    first, count = -best[3], -best[1]
    chosen = sentences[first : first + count]
    start, end = chosen[0].start, chosen[-1].end
    numbered = tuple(range(first + 1, first + count + 1))
    return SupportSpan(start, end, numbered, record.text[start:end]), frozenset().union(*held[first : first + count])


def _held(own: frozenset[str], wanted: frozenset[str], named: frozenset[str]) -> frozenset[str]:
    held = own & wanted
    return held if held - named or held == wanted else frozenset()


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
