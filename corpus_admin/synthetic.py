"""A synthetic corpus for scale tests and benchmarks: pseudo-words with Zipfian frequencies, deterministic by seed.

Pure (numpy only): `manage.py load_synthetic` turns it into served chunks, answers.bench.retrieval into
throwaway indexes.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SyntheticCorpus:
    """Token lists of documents and queries drawn from one Zipfian vocabulary."""

    chunk_ids: list[str]
    docs: list[list[str]]
    queries: list[list[str]]


def synthetic_corpus(
    *,
    chunks: int,
    queries: int,
    seed: int = 13,
    vocabulary: int = 50_000,
    zipf_exponent: float = 1.1,
    doc_length: tuple[int, int] = (80, 250),
    query_length: tuple[int, int] = (3, 8),
) -> SyntheticCorpus:
    """A deterministic corpus: pseudo-words "w<rank>" with Zipfian frequencies, uniform document lengths."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(vocabulary)], dtype=object)
    weights = 1.0 / np.arange(1, vocabulary + 1, dtype=np.float64) ** zipf_exponent
    probabilities = weights / weights.sum()

    def draw(count: int, bounds: tuple[int, int]) -> list[list[str]]:
        lengths = rng.integers(bounds[0], bounds[1] + 1, size=count)
        flat = words[rng.choice(vocabulary, size=int(lengths.sum()), p=probabilities)].tolist()
        ends = np.cumsum(lengths).tolist()
        return [flat[end - length : end] for end, length in zip(ends, lengths.tolist(), strict=True)]

    width = len(str(max(chunks - 1, 0)))
    return SyntheticCorpus(
        chunk_ids=[f"synthetic-c{i:0{width}d}" for i in range(chunks)],
        docs=draw(chunks, doc_length),
        queries=draw(queries, query_length),
    )
