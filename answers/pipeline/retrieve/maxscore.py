"""Exact top-k by MaxScore pruning: the documents that can reach the top k, found without reading every posting.

Each query term has an upper bound on what it adds to any document's score (its idf times the largest tf part
its postings can have). First a seed: the documents of the rarest terms, scored exactly; the k-th best of them is
a lower bound of the k-th best score overall. Then the longest postings are set aside while their bounds sum to
less than that: a document found in none of the other terms' postings scores at most that sum, below the k-th
best, so the top k lies among the documents of the terms kept. Those candidates are scored exactly, every term
looked up by binary search in its document-ordered postings, in query order, so scores are bit for bit those of
the exhaustive path (and of rank-bm25).

It applies only when every idf is positive (a term only adds), and a bound is used only with a margin far larger
than any rounding, so nothing tied with the k-th best is lost (ties are broken by chunk id afterwards).
"""
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

_MARGIN = 1e-9  # relative: rounding in a sum of a few dozen float64 terms is below 1e-14
SEED_POSTINGS = 4096  # postings of the rarest terms scored first to learn a lower bound of the k-th best
# A posting looked up by binary search costs about this many scattered ones: prune only when that is cheaper.
LOOKUP_COST = 6


@dataclass(frozen=True)
class QueryTerm:
    """One distinct query term in one tier: its postings (document numbers ascending) and its bound."""

    docs: np.ndarray
    bound: float  # upper bound of what it adds to a score: idf * largest tf part, times the query's repeats
    dense: bool = False  # looked up by indexing a per-document column rather than by binary search


def candidate_docs(
    terms: Sequence[QueryTerm],
    *,
    k: int,
    exact_scores: Callable[[np.ndarray], np.ndarray],
    seed_postings: int = SEED_POSTINGS,
    lookup_cost: float = LOOKUP_COST,
) -> np.ndarray | None:
    """Document numbers (ascending) that hold every document of the exact top k; None when pruning cannot pay.

    exact_scores gives the true scores of some documents. With seed_postings and lookup_cost 0 it prunes whenever
    it soundly can (the tests compare that with the exhaustive path).
    """
    by_size = sorted(terms, key=lambda term: term.docs.size)
    total = sum(term.docs.size for term in by_size)
    seed_terms: list[QueryTerm] = []
    seeded = 0
    for term in by_size:
        if seed_terms and seeded >= k and seeded + term.docs.size > seed_postings:
            break
        seed_terms.append(term)
        seeded += term.docs.size
    if len(seed_terms) == len(by_size):
        return None  # every term is short: the exhaustive path is as cheap
    seed = _union([term.docs for term in seed_terms])
    threshold = _safe(_kth(exact_scores(seed), k))
    if threshold <= 0:
        return None

    set_aside = 0.0
    kept = list(by_size)
    while kept and set_aside + kept[-1].bound < threshold:
        set_aside += kept.pop().bound
    kept_postings = sum(term.docs.size for term in kept)
    per_candidate = sum(min(1, lookup_cost) if term.dense else lookup_cost for term in by_size)
    if kept_postings * per_candidate > total:
        return None
    return _union([term.docs for term in kept])


def lookup_postings(docs: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of the wanted documents (ascending) a term's postings hold: their indexes in wanted and in postings."""
    at = np.searchsorted(docs, wanted)
    inside = at < docs.size
    hit = np.zeros(wanted.size, dtype=bool)
    hit[inside] = docs[at[inside]] == wanted[inside]
    found = np.flatnonzero(hit)
    return found, at[found]


def _union(postings: list[np.ndarray]) -> np.ndarray:
    """The documents of these postings, ascending, once each."""
    if len(postings) == 1:
        return postings[0]
    merged = np.sort(np.concatenate(postings))  # a sort: numpy's hashing np.unique is slower here
    return merged[np.concatenate(([True], merged[1:] != merged[:-1]))]


def _kth(values: np.ndarray, k: int) -> float:
    if values.size < k:
        return 0.0
    return float(np.partition(values, values.size - k)[values.size - k])


def _safe(threshold: float) -> float:
    return threshold - _MARGIN * abs(threshold)
