"""The seed's hot loop compiled by numba when it is installed: exact scores of a few thousand documents and their
top k, in one call instead of a few numpy calls per query term.

Each document's score is the same float64 sum as on the numpy path, term by term in query order: idf * tf part of
the term's pair code for a term it holds (a column term adds idf * 0.0 = 0.0 where it is absent), nothing
otherwise. numba compiles without fastmath, so no sum is reordered and no product fused, and the exactness tests
(bit for bit against rank-bm25, query order included) run on whichever path is installed. Without numba
`AVAILABLE` is False and `retrieve.bm25` keeps its numpy path; the site needs nothing compiled.
"""
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from numba import njit
except ImportError:  # numba is optional: the numpy path is the fallback
    njit = None

AVAILABLE = njit is not None


def _exact_scores(
    docs: np.ndarray,
    post_docs: np.ndarray,
    post_codes: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    idfs: np.ndarray,
    rows: np.ndarray,
    columns: np.ndarray,
    tf_part: np.ndarray,
) -> np.ndarray:
    """The documents' (ascending) scores over the query's terms in query order: term i's postings are
    post_docs/post_codes[starts[i]:starts[i] + sizes[i]], or its row rows[i] >= 0 of the per-document columns."""
    values = np.zeros(docs.size, dtype=np.float64)
    n = docs.size
    for term in range(starts.size):
        idf = idfs[term]
        row = rows[term]
        if row >= 0:
            for i in range(n):
                values[i] += idf * tf_part[columns[row, docs[i]]]
            continue
        at, end = starts[term], starts[term] + sizes[term]
        place = 0
        while at < end and place < n:  # walk the postings and docs together, galloping over long gaps in docs
            doc = post_docs[at]
            if docs[place] < doc:
                step = 1
                while place + step < n and docs[place + step] < doc:
                    place += step
                    step *= 2
                low, high = place + 1, min(place + step, n)  # docs[place] < doc <= docs[high] (or high = n)
                while low < high:
                    middle = (low + high) >> 1
                    if docs[middle] < doc:
                        low = middle + 1
                    else:
                        high = middle
                place = low
                if place >= n:
                    break
            if docs[place] == doc:
                values[place] += idf * tf_part[post_codes[at]]
                place += 1
            at += 1
    return values


def _top(values: np.ndarray, docs: np.ndarray, order: np.ndarray, k: int) -> np.ndarray:
    """Indexes of the k largest non-zero values, best first, ties by the smaller order[docs[i]] (the chunk id's
    place): lexsort((order[docs], -values)) of the non-zero ones, cut to k."""
    chosen = np.empty(k, dtype=np.int64)
    keys = np.empty(k, dtype=np.int64)
    count = 0
    for i in range(values.size):
        value = values[i]
        if value == 0.0:
            continue
        key = order[docs[i]]
        if count == k:
            last = chosen[k - 1]
            if value < values[last] or (value == values[last] and key > keys[k - 1]):
                continue
            slot = k - 1
        else:
            slot = count
            count += 1
        while slot > 0:  # insertion: k is small
            before = chosen[slot - 1]
            if values[before] > value or (values[before] == value and keys[slot - 1] < key):
                break
            chosen[slot], keys[slot] = before, keys[slot - 1]
            slot -= 1
        chosen[slot], keys[slot] = i, key
    return chosen[:count]


def _compiled(function: Callable[..., Any]) -> Callable[..., Any]:
    return njit(cache=True, nogil=True)(function) if njit is not None else function


exact_scores = _compiled(_exact_scores)
top = _compiled(_top)
