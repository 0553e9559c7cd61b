"""Support spans (§2.7, §5.6): the one or two sentences of a chunk's original text that hold most of a claim's terms."""
import functools
from collections.abc import Collection

from answers.pipeline.evidence import instruction_ranges
from answers.pipeline.records import ChunkRecord, SentenceSpan
from answers.pipeline.text.sentences import MARKER, sentence_spans
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms
from answers.pipeline.types import SupportSpan

_MAX_SENTENCES = 2


def chunk_sentences(record: ChunkRecord) -> tuple[SentenceSpan, ...]:
    """The chunk's sentences: as stored at ingestion, or split now (with today's instruction rule) for a chunk stored
    before sentences were."""
    return record.sentences or _split_now(record.text)


def support_span(
    terms: Collection[str], record: ChunkRecord, *, tokenizer: TokenizerConfig
) -> tuple[SupportSpan, frozenset[str]] | None:
    """The span holding the most of `terms`, and the terms it holds; None when no sentence holds any.

    A span is one sentence or two adjacent ones, never a flagged instruction (§2.8); of spans holding as many terms
    the shorter wins (one sentence before two), then the earlier.
    """
    wanted = frozenset(terms)
    sentences = chunk_sentences(record)
    held = [_terms_of(record.text[s.start : s.end], tokenizer) & wanted for s in sentences]
    best: tuple[int, int, int] | None = None  # (terms held, -sentence count, -first sentence): the largest wins
    for first, span in enumerate(sentences):
        if span.instruction:
            continue
        for count in range(1, _MAX_SENTENCES + 1):
            last = first + count - 1
            if last >= len(sentences) or sentences[last].instruction:
                break
            key = (len(frozenset().union(*held[first : last + 1])), -count, -first)
            if key[0] and (best is None or key > best):
                best = key
    if best is None:
        return None
    first, count = -best[2], -best[1]
    chosen = sentences[first : first + count]
    start, end = chosen[0].start, chosen[-1].end
    numbers = tuple(range(first + 1, first + count + 1))
    return SupportSpan(start, end, numbers, record.text[start:end]), frozenset().union(*held[first : first + count])


# Every sentence of an answer is checked against the same few chunks: tokenize each chunk sentence once.
@functools.lru_cache(maxsize=4096)
def _terms_of(text: str, tokenizer: TokenizerConfig) -> frozenset[str]:
    return frozenset(significant_terms(MARKER.sub(" ", text), tokenizer))


@functools.lru_cache(maxsize=256)
def _split_now(text: str) -> tuple[SentenceSpan, ...]:
    flagged = instruction_ranges(text, ())
    return tuple(
        SentenceSpan(start, end, text.count("\n", 0, start) + 1, any(a < end and start < b for a, b in flagged))
        for start, end in sentence_spans(text)
    )
