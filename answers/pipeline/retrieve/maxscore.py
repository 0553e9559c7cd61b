"""Exact top-k by MaxScore pruning: the documents that can reach the top k, found without reading every posting.

Each query term has an upper bound on what it adds to any document's score (its idf times the largest tf part
its postings can have). First a seed: the documents of the rarest terms; the few with the largest sums of those
terms' contributions get a lower bound of their scores (those sums plus what the other terms add), and the k-th
best of them is a lower bound of the k-th best score overall. Then the longest postings are set aside while
their bounds sum to less than that: a document found in none of the other terms' postings scores at most that
sum, below the k-th best, so the top k lies among the documents of the terms kept. Each of those gets an upper
bound, the kept terms' contributions plus the set-aside bounds, narrowed term by term through the set-aside
ones; only the documents whose bound still reaches the k-th best are scored exactly, every term looked up in its
document-ordered postings in query order, so scores are bit for bit those of the exhaustive path (and of
rank-bm25). When the seed's documents are already scored exactly, `reaching_docs` does the same for the other
terms alone, over the documents of none of the seed's terms.

It applies only when every idf is positive (a term only adds), and a bound is used only with a margin far larger
than any rounding, so nothing tied with the k-th best is lost (ties are broken by chunk id afterwards).
"""
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

_MARGIN = 1e-9  # relative: rounding in a sum of a few dozen float64 terms is below 1e-14
SEED_POSTINGS = 4096  # postings of the rarest terms read first to learn a lower bound of the k-th best
SEED_EXACT = 8  # times k: the seed documents with the largest partial sums that are scored exactly
# A posting looked up by binary search costs about this many scattered ones: prune only when that is cheaper.
LOOKUP_COST = 6


@dataclass(frozen=True)
class QueryTerm:
    """One distinct query term in one tier: its postings (document numbers ascending) and its bound."""

    docs: np.ndarray
    bound: float  # upper bound of what it adds to a score: idf * largest tf part, times the query's repeats
    dense: bool = False  # looked up by indexing a per-document column rather than by binary search
    weights: Callable[[], np.ndarray] | None = None  # what it adds to each of its documents (None: its bound)
    weights_of: Callable[[np.ndarray], np.ndarray] | None = None  # what it adds to these documents (0 if absent)


def candidate_docs(
    terms: Sequence[QueryTerm],
    *,
    k: int,
    exact_scores: Callable[[np.ndarray], np.ndarray],
    seed_postings: int = SEED_POSTINGS,
    lookup_cost: float = LOOKUP_COST,
    doc_count: int = 0,
    exhaustive_cost: float | None = None,
    excluded: np.ndarray | None = None,
    threshold: float | None = None,
) -> np.ndarray | None:
    """Document numbers (ascending) that hold every document of the exact top k; None when pruning cannot pay.

    exact_scores gives the true scores of some documents; doc_count, the documents' number range, lets a large
    union be taken on a dense array instead of by sorting; exhaustive_cost is what scoring every posting costs, in
    scattered postings (their count by default); excluded marks documents (by number) that are not to be returned
    (an update's removed ones), so they never lift the threshold. With seed_postings and lookup_cost 0 it prunes
    whenever it soundly can (the tests compare that with the exhaustive path). threshold, if given, is a lower bound
    of the k-th best score already known (less a margin above rounding, as `_safe` takes): the seed is not scored.
    """
    by_size = sorted(terms, key=lambda term: term.docs.size)
    total = sum(term.docs.size for term in by_size) if exhaustive_cost is None else exhaustive_cost
    seed_terms = by_size[: seed_count([term.docs.size for term in by_size], k, seed_postings)]
    seeded = sum(term.docs.size for term in seed_terms)
    if len(seed_terms) == len(by_size) or (lookup_cost and seeded * KEPT_COST > total):
        return None  # every term is short, or every one long: the exhaustive path is as cheap
    seed: tuple[np.ndarray, np.ndarray] | None = None  # the seed's documents and partial sums, if computed
    if threshold is None:
        seed = _partial_sums(seed_terms, doc_count)
        threshold = _seed_threshold(*seed, by_size, len(seed_terms), k, exact_scores, excluded)
    if threshold <= 0:
        return None

    kept, set_aside = _kept_and_set_aside(by_size, threshold)
    kept_postings = sum(term.docs.size for term in kept)
    if (lookup_cost and not set_aside) or kept_postings * min(lookup_cost, KEPT_COST) > total:
        return None  # nothing or too little set aside: the exhaustive path is as cheap
    # kept holds the seed terms (the shortest): if it holds no other, its documents are the seed's
    docs, partial = seed if seed is not None and len(kept) == len(seed_terms) else _partial_sums(kept, doc_count)
    return _narrowed(docs, partial, set_aside, threshold)


def reaching_docs(
    terms: Sequence[QueryTerm], *, threshold: float, doc_count: int = 0, max_postings: float | None = None
) -> np.ndarray | None:
    """Document numbers (ascending) holding every document whose score from these terms alone can reach threshold
    (a lower bound of the k-th best, less the margin); None when the terms kept would read more than max_postings.

    For the documents found in none of the other terms of a query (a seed's): their score is what these add.
    """
    kept, set_aside = _kept_and_set_aside(sorted(terms, key=lambda term: term.docs.size), threshold)
    if not kept:
        return np.zeros(0, dtype=np.int64)  # even every bound together falls short
    if max_postings is not None and sum(term.docs.size for term in kept) > max_postings:
        return None
    return _narrowed(*_partial_sums(kept, doc_count), set_aside, threshold)


def _kept_and_set_aside(by_size: list[QueryTerm], threshold: float) -> tuple[list[QueryTerm], list[QueryTerm]]:
    """The terms (postings ascending) split: the longest set aside while their bounds sum below threshold, the
    others kept; a document of no kept term scores at most that sum."""
    set_aside: list[QueryTerm] = []
    kept = list(by_size)
    while kept and sum(term.bound for term in set_aside) + kept[-1].bound < threshold:
        set_aside.append(kept.pop())
    return kept, set_aside


def _narrowed(docs: np.ndarray, partial: np.ndarray, set_aside: list[QueryTerm], threshold: float) -> np.ndarray:
    """The documents whose bound (partial, an upper bound of what the kept terms add, plus the set-aside terms'
    bounds) reaches threshold, narrowed by each set-aside term in turn (largest bound first): drop the documents
    whose bound cannot reach it, then replace the term's bound by what it really adds to those left."""
    for at, term in enumerate(set_aside):
        rest = sum(other.bound for other in set_aside[at:])
        keep = partial + rest >= threshold
        docs, partial = docs[keep], partial[keep]
        if term.weights_of is None or docs.size <= _FEW:
            return docs  # few enough to score exactly at once
        partial += term.weights_of(docs) * (1 + _MARGIN)  # positive: raised to bound its rounding
    return docs[partial >= threshold]


def seed_count(sizes: Sequence[int], k: int, seed_postings: int = SEED_POSTINGS) -> int:
    """How many of the terms (postings sizes, ascending) make the seed: the shortest, until they hold at least k
    postings and the next would take them past seed_postings."""
    seeded = 0
    for count, size in enumerate(sizes):
        if count and seeded >= k and seeded + size > seed_postings:
            return count
        seeded += size
    return len(sizes)


def _seed_threshold(
    seed_docs: np.ndarray,
    seed_partial: np.ndarray,
    by_size: list[QueryTerm],
    seeds: int,
    k: int,
    exact_scores: Callable[[np.ndarray], np.ndarray],
    excluded: np.ndarray | None,
) -> float:
    """A lower bound of the k-th best score, less the margin: the k-th best lower bound of the seed documents with
    the largest partial sums."""
    seed, exact_count = seed_docs, SEED_EXACT * k
    picked = np.arange(seed.size)
    if seed.size > exact_count:  # the k-th best of any of them is a lower bound: take the likeliest
        picked = np.sort(np.argpartition(seed_partial, seed.size - exact_count)[seed.size - exact_count :])
        seed = seed[picked]
    seed_scores = _seed_scores(seed, seed_partial[picked], by_size, seeds, exact_scores)
    if excluded is not None:
        seed_scores[excluded[seed]] = 0.0
    return _safe(_kth(seed_scores, k))


def _seed_scores(
    seed: np.ndarray,
    partial: np.ndarray,
    by_size: list[QueryTerm],
    seeds: int,
    exact_scores: Callable[[np.ndarray], np.ndarray],
) -> np.ndarray:
    """Lower bounds of the seed documents' scores: the seed terms' sums already taken (the margin taken off
    again, so within rounding below the true partial sums) plus what each other term adds."""
    if any(term.weights is None or term.weights_of is None for term in by_size):
        return exact_scores(seed)
    scores = partial / (1 + _MARGIN) ** 2
    for term in by_size[seeds:]:
        scores += term.weights_of(seed)  # type: ignore[misc]  # checked above
    return scores


KEPT_COST = 3  # a kept posting costs about this many scattered ones: its weight, a union and a sum
_FEW = 256  # candidates scored exactly at once rather than narrowed further through the set-aside terms
_DENSE_UNION = 16  # a union of more than 1/16 of the documents' postings is taken on a dense array


def _partial_sums(terms: list[QueryTerm], doc_count: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The terms' documents (ascending, once each) and an upper bound of what the terms add to each of them.

    Summed in any order, then raised by the margin: the result bounds the true partial sum, whose rounding is far
    inside it (every weight is positive).
    """
    if len(terms) == 1:
        term = terms[0]
        alone = term.weights() if term.weights is not None else np.full(term.docs.size, term.bound)
        return term.docs, alone * (1 + _MARGIN)
    if doc_count and sum(term.docs.size for term in terms) * _DENSE_UNION > doc_count:
        dense = np.zeros(doc_count, dtype=np.float64)
        for term in terms:
            dense[term.docs.astype(np.intp)] += term.weights() if term.weights is not None else term.bound
        docs = np.flatnonzero(dense)  # weights are positive: a document of these terms is never 0.0
        return docs, dense[docs] * (1 + _MARGIN)
    docs = _union([term.docs for term in terms])
    sums = np.zeros(docs.size, dtype=np.float64)
    for term in terms:
        weights: np.ndarray | float = term.weights() if term.weights is not None else term.bound
        if term.docs.size == docs.size:
            sums += weights
        else:
            sums[np.searchsorted(docs, term.docs)] += weights
    return docs, sums * (1 + _MARGIN)


def lookup_postings(docs: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which of the wanted documents (ascending) a term's postings hold: their indexes in wanted and in postings."""
    if not docs.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # wanted in the postings' dtype: searchsorted would otherwise cast every posting (int32 ones to int64) per call
    at = np.searchsorted(docs, wanted.astype(docs.dtype, copy=False))
    found = (docs.take(at, mode="clip") == wanted).nonzero()[0]  # past the end: compared with the last one
    return found, at.take(found)


def _union(postings: list[np.ndarray]) -> np.ndarray:
    """The documents of these postings, ascending, once each."""
    if len(postings) == 1:
        return postings[0]
    # A stable sort (timsort for int32) merges the ascending runs in linear time: about 4 us for 3,000 documents
    # where the default introsort takes about 30; numpy's hashing np.unique is slower still.
    merged = np.concatenate(postings)
    merged.sort(kind="stable")  # in place: the concatenation is ours
    first = np.empty(merged.size, dtype=bool)  # each document's first place, written without a concatenation
    first[0] = True
    np.not_equal(merged[1:], merged[:-1], out=first[1:])
    return merged[first]


def _kth(values: np.ndarray, k: int) -> float:
    """The k-th largest of values (0.0 if fewer than k), as np.partition gives it."""
    return at_least_kth(values, k)[0]


def at_least_kth(values: np.ndarray, k: int) -> tuple[float, np.ndarray]:
    """The k-th largest of values (0.0 if fewer than k, then no places) and the places (ascending) of every value
    at or above it, ties at the boundary included.

    Up to _KTH_DIRECT values, one np.partition of all of them is the fewest steps. Past that, partitioning them all
    costs more than narrowing first (measured in numpy 2.4 on the synthetic seeds' scores: 1-4k values 4-6 us
    against 11 by narrowing; 16-32k values 31 us against 22): cut into _KTH_ROWS rows, the columns' maxima hold
    k values from k distinct columns at or above their own k-th largest, so that is at most the k-th largest of
    all, and partitioning only the values at or above it (a few dozen) gives the same k-th largest.
    """
    size = values.size
    if size < k:
        return 0.0, np.zeros(0, dtype=np.intp)
    if size <= _KTH_DIRECT:
        kth = np.partition(values, size - k)[size - k]
        return float(kth), (values >= kth).nonzero()[0]
    width = size // _KTH_ROWS
    if width >= _KTH_COLUMNS * k:
        maxima = values[: width * _KTH_ROWS].reshape(_KTH_ROWS, width).max(axis=0)
        maxima.partition(width - k)  # in place: a fresh array
        # nonzero()[0], not np.flatnonzero: the same places without its ravel and Python wrapper (about 1 us)
        places = (values >= maxima[width - k]).nonzero()[0]
        values = values.take(places)
    else:
        places = np.arange(size)
    kth = np.partition(values, values.size - k)[values.size - k]
    return float(kth), places.compress(values >= kth)


_KTH_ROWS = 16  # _kth's rows: a column's maximum is one of 16 values
_KTH_COLUMNS = 4  # _kth narrows when it has at least 4 columns per value sought
_KTH_DIRECT = 8192  # up to this many values, _kth partitions them all at once


def _safe(threshold: float) -> float:
    return threshold - _MARGIN * abs(threshold)
