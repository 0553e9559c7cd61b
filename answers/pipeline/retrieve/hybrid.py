"""Hybrid retrieval: BM25 and dense rankings of the same caller's chunks fused by reciprocal-rank fusion.

fused(d) = w / (c + rank_bm25(d)) + (1 - w) / (c + rank_dense(d)), ranks from 1 in each list's first `depth`
hits (a list a chunk is not in adds nothing), c = 60 and w = 0.5 as in Cormack, Clarke and Buettcher (SIGIR 2009):
not tuned on the benchmark's judged queries (README, "Hybrid retrieval"). Ties by chunk id.

The fused scores are then scaled so that the first hit carries the best BM25 score of the candidates and the
others keep their fused ratio to it (shifted instead when that best score is not positive): the order is the
fused one, and the gate's RAG_MIN_SCORE and the reader's score margin keep their BM25 meaning (a question no chunk
matches lexically still finds no material).
"""
from dataclasses import dataclass

from answers.pipeline.retrieve.bm25 import Hit

RRF_C = 60.0
BM25_WEIGHT = 0.5
DEPTH = 50


@dataclass(frozen=True)
class FusionConfig:
    """How the two rankings are fused."""

    c: float = RRF_C
    bm25_weight: float = BM25_WEIGHT
    depth: int = DEPTH


def fuse_rankings(bm25: list[Hit], dense: list[Hit], *, k: int, config: FusionConfig = FusionConfig()) -> list[Hit]:
    """The k best chunks of both rankings by reciprocal-rank fusion, scored on the BM25 scale."""
    if k <= 0:
        return []
    fused: dict[str, float] = {}
    for weight, hits in ((config.bm25_weight, bm25), (1.0 - config.bm25_weight, dense)):
        for rank, hit in enumerate(hits[: config.depth], start=1):
            fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + weight / (config.c + rank)
    ranked = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:k]
    if not ranked:
        return []
    best_bm25 = max((hit.score for hit in bm25[: config.depth]), default=0.0)
    top = ranked[0][1]
    if best_bm25 <= 0:  # nothing matched lexically (or rank-bm25's negative idf on a tiny corpus): keep the order
        return [Hit(chunk_id, best_bm25 - (top - score)) for chunk_id, score in ranked]
    return [Hit(chunk_id, best_bm25 * score / top) for chunk_id, score in ranked]
