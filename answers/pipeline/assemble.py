"""Assemble retrieved chunks into numbered evidence blocks within the token budget (§5.3)."""
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from answers.pipeline.config import PipelineConfig
from answers.pipeline.types import Assembly, Block, Retrieved

T = TypeVar("T")


def assemble_blocks(
    retrieved: Sequence[Retrieved],
    *,
    config: PipelineConfig,
) -> Assembly:
    """Take the best chunks that fit the budget and caps, place the best at both ends and number them 1..n.

    A chunk costs its stored `token_count` (cl100k_base, counted once at ingest), not a count made per question.
    """
    ranked = sorted(retrieved, key=lambda hit: (-hit.score, hit.record.chunk_id))
    taken: list[Retrieved] = []
    taken_fingerprints: dict[str, str] = {}
    per_source: Counter[int] = Counter()
    skipped: list[tuple[str, str]] = []
    tokens_used = 0
    for hit in ranked:
        record = hit.record
        if record.fingerprint in taken_fingerprints:
            skipped.append((record.chunk_id, f"duplicate of {taken_fingerprints[record.fingerprint]}"))
        elif per_source[record.source_id] >= config.per_source:
            skipped.append((record.chunk_id, "per-source cap"))
        elif len(taken) >= config.max_blocks:
            skipped.append((record.chunk_id, "block limit"))
        elif (tokens := record.token_count) > (left := config.context_tokens - tokens_used):
            # Skip rather than stop: a smaller, lower-ranked chunk may still fit in what is left.
            skipped.append((record.chunk_id, f"over the token budget ({tokens} tokens, {left} left)"))
        else:
            taken.append(hit)
            taken_fingerprints[record.fingerprint] = record.chunk_id
            per_source[record.source_id] += 1
            tokens_used += tokens
    presented = order_best_at_ends(taken)
    blocks = tuple(
        Block(number=number, record=hit.record, score=hit.score, text=hit.record.text)
        for number, hit in enumerate(presented, start=1)
    )
    return Assembly(blocks=blocks, tokens_used=tokens_used, skipped=tuple(skipped))


def order_best_at_ends(ranked: Sequence[T]) -> list[T]:
    """Reorder best-first items so ranks 1, 3, 5... run from the front and 2, 4... back from the end."""
    # Models read the start and end of a long context more reliably than its middle.
    return [*ranked[0::2], *reversed(ranked[1::2])]
