"""Dense retrieval: cosine similarity of a question vector to chunk vectors, per audience tier (§3).

A chunk has one or more rows: the vector of its whole text and those of its sentences. Its score is the best of
its rows (a long chunk's one sentence that answers is not diluted by the rest). Chunks are ordered by (audience
rank, chunk id), as BM25 numbers its documents, and their rows are contiguous, so a tier's rows are a prefix of
the matrix and a search reads exactly the caller's rows: another tier's vectors are never scored, and a chunk's
score depends on nothing but its own vectors and the question, so nothing about invisible chunks leaks through it.
A chunk without a vector (ingested with embeddings off, or an old row) is simply not on this side.
"""
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from answers.pipeline.records import AUDIENCE_RANK
from answers.pipeline.retrieve.bm25 import Hit

TIERS = len(AUDIENCE_RANK)
_AUDIENCES = {rank: audience for audience, rank in AUDIENCE_RANK.items()}


@dataclass(frozen=True, eq=False)
class DenseIndex:
    """An immutable matrix of L2-normalised vectors, a run of rows per chunk; make one with `build`."""

    chunk_ids: tuple[str, ...]
    ranks: np.ndarray  # int8 audience rank per chunk, non-decreasing
    row_starts: np.ndarray  # int64 per chunk: its first row; its rows run to the next chunk's first
    vectors: np.ndarray  # float32 (rows, dimensions)
    tier_ends: tuple[int, ...]  # chunks visible to tier t: [0, tier_ends[t])

    @classmethod
    def build(cls, chunks: Iterable[tuple[str, str, np.ndarray]], *, dimensions: int = 384) -> "DenseIndex":
        """From (chunk id, audience, vectors) in any order; vectors is one row (d,) or several (m, d), m >= 1."""
        ordered = sorted(
            ((AUDIENCE_RANK[audience], chunk_id, np.atleast_2d(vectors)) for chunk_id, audience, vectors in chunks),
            key=lambda chunk: (chunk[0], chunk[1]),
        )
        ordered = [chunk for chunk in ordered if len(chunk[2])]
        ranks = np.array([chunk[0] for chunk in ordered], dtype=np.int8)
        sizes = np.array([len(chunk[2]) for chunk in ordered], dtype=np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64) if len(sizes) else sizes
        if ordered:
            vectors = np.ascontiguousarray(np.concatenate([chunk[2] for chunk in ordered]), dtype=np.float32)
        else:
            vectors = np.zeros((0, dimensions), dtype=np.float32)
        ends = tuple(int(np.searchsorted(ranks, tier, side="right")) for tier in range(TIERS))
        return cls(tuple(chunk[1] for chunk in ordered), ranks, starts, vectors, ends)

    def chunks(self) -> Iterator[tuple[str, str, np.ndarray]]:
        """The (chunk id, audience, vectors) it was built from."""
        ends = [*self.row_starts[1:].tolist(), len(self.vectors)]
        for i, chunk_id in enumerate(self.chunk_ids):
            yield chunk_id, _AUDIENCES[int(self.ranks[i])], self.vectors[int(self.row_starts[i]) : ends[i]]

    def updated(self, *, removed: Collection[str], added: Iterable[tuple[str, str, np.ndarray]]) -> "DenseIndex":
        """A new index without the removed chunk ids and with the added chunks."""
        gone = set(removed)
        kept = (chunk for chunk in self.chunks() if chunk[0] not in gone)
        return DenseIndex.build([*kept, *added], dimensions=self.vectors.shape[1])

    def scores(self, query: np.ndarray, *, max_rank: int) -> np.ndarray:
        """Each of the tier's chunks' best row similarity to the query, in chunk order."""
        if not 0 <= max_rank < TIERS:
            raise ValueError(f"max_rank must be 0..{TIERS - 1}, not {max_rank}")
        visible = self.tier_ends[max_rank]
        if visible == 0:
            return np.zeros(0, dtype=np.float32)
        rows = int(self.row_starts[visible]) if visible < len(self.chunk_ids) else len(self.vectors)
        similarities = self.vectors[:rows] @ np.asarray(query, dtype=np.float32)
        return np.maximum.reduceat(similarities, self.row_starts[:visible])

    def search(self, query: np.ndarray, *, max_rank: int, k: int) -> list[Hit]:
        """The k chunks of the tier most similar to the query vector, best first, ties by chunk id."""
        scores = self.scores(query, max_rank=max_rank)
        if k <= 0 or not len(scores):
            return []
        if k < len(scores):
            threshold = scores[np.argpartition(-scores, k - 1)[k - 1]]
            top = np.flatnonzero(scores >= threshold)  # every chunk tied with the k-th, so ties break by chunk id
        else:
            top = np.arange(len(scores))
        ranked = sorted(top.tolist(), key=lambda i: (-float(scores[i]), self.chunk_ids[i]))[:k]
        return [Hit(self.chunk_ids[i], float(scores[i])) for i in ranked]

    def __len__(self) -> int:
        return len(self.chunk_ids)
