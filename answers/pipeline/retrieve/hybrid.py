"""Hybrid retrieval: BM25 and dense rankings of the same caller's chunks fused by reciprocal-rank fusion.

fused(d) = w / (c + rank_bm25(d)) + (1 - w) / (c + rank_dense(d)), ranks from 1 in each list's first `depth`
hits (a list a chunk is not in adds nothing), c = 60 and w = 0.5 as in Cormack, Clarke and Buettcher (SIGIR 2009):
not tuned on the benchmark's judged queries (README, "Hybrid retrieval"). Ties by chunk id.

The fused scores are then scaled so that the first hit carries the best BM25 score of the candidates and the
others keep their fused ratio to it (shifted instead when that best score is not positive): the order is the
fused one, and the gate's RAG_MIN_SCORE and the reader's score margin keep their BM25 meaning (a question no chunk
matches lexically still finds no material).

Two options, off by default (plain RRF, the figures of the README's SciFact table): `keep_bm25` puts BM25's first
n hits first, in BM25 order and with their own scores, the fused list filling the places after them (each scaled
under the last kept score, so assembly, which orders by score, keeps that order); `dense_floor` drops the dense hits
whose cosine is under it before fusing, so a weak semantic neighbour cannot displace a lexical hit.
"""
from dataclasses import dataclass

from answers.pipeline.retrieve.bm25 import Hit

RRF_C = 60.0
BM25_WEIGHT = 0.5
DEPTH = 50
UNDER = 1 - 1e-9  # the first fused hit after the kept ones scores just under the last kept one


@dataclass(frozen=True)
class FusionConfig:
    """How the two rankings are fused."""

    c: float = RRF_C
    bm25_weight: float = BM25_WEIGHT
    depth: int = DEPTH
    keep_bm25: int = 0  # BM25's first hits kept first, in BM25 order, whatever the dense side says
    dense_floor: float = -1.0  # a dense hit below this cosine similarity adds nothing


PLAIN_RRF = FusionConfig()  # the defaults: c = 60, equal weights, depth 50, nothing kept, no floor


def fuse_rankings(bm25: list[Hit], dense: list[Hit], *, k: int, config: FusionConfig = FusionConfig()) -> list[Hit]:
    """The k best chunks of both rankings by reciprocal-rank fusion, scored on the BM25 scale."""
    if k <= 0:
        return []
    fused: dict[str, float] = {}
    semantic = [hit for hit in dense[: config.depth] if hit.score >= config.dense_floor]
    for weight, hits in ((config.bm25_weight, bm25[: config.depth]), (1.0 - config.bm25_weight, semantic)):
        for rank, hit in enumerate(hits, start=1):
            fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + weight / (config.c + rank)
    kept = {hit.chunk_id: hit.score for hit in bm25[: min(config.keep_bm25, config.depth)] if hit.score > 0}
    rest = sorted(((chunk_id, score) for chunk_id, score in fused.items() if chunk_id not in kept),
                  key=lambda item: (-item[1], item[0]))
    ranked = [*kept.items(), *rest][:k]
    if not ranked:
        return []
    best_bm25 = max((hit.score for hit in bm25[: config.depth]), default=0.0)
    if kept:  # the kept hits carry their BM25 scores; the others, scaled, stay strictly under the last of them
        last, top = list(kept.values())[-1], (rest[0][1] if rest else 1.0)
        return [*(Hit(chunk_id, score) for chunk_id, score in ranked[: len(kept)]),
                *(Hit(chunk_id, last * score / top * UNDER) for chunk_id, score in ranked[len(kept) :])]
    top = ranked[0][1]
    if best_bm25 <= 0:  # nothing matched lexically (or rank-bm25's negative idf on a tiny corpus): keep the order
        return [Hit(chunk_id, best_bm25 - (top - score)) for chunk_id, score in ranked]
    return [Hit(chunk_id, best_bm25 * score / top) for chunk_id, score in ranked]
