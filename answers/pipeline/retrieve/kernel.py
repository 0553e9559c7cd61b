"""The seed's hot loop compiled by numba when it is installed: exact scores of a few thousand documents and their
top k, in one call instead of a few numpy calls per query term.

Each document's score is the same float64 sum as on the numpy path, term by term in query order: idf * tf part of
the term's pair code for a term it holds (a column term adds idf * 0.0 = 0.0 where it is absent), nothing
otherwise. numba compiles without fastmath, so no sum is reordered and no product fused, and the exactness tests
(bit for bit against rank-bm25, query order included) run on whichever path is installed. Without numba
`AVAILABLE` is False and `retrieve.bm25` keeps its numpy path; the site needs nothing compiled.
"""
import importlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def _numba_jit() -> Callable[..., Any] | None:
    """numba's njit, or None when numba is not installed (imported by name: it is optional, so untyped for mypy)."""
    try:
        return cast(Callable[..., Any], importlib.import_module("numba").njit)
    except ImportError:  # the numpy path is the fallback
        return None


_njit = _numba_jit()
AVAILABLE = _njit is not None


def _gallop(array: np.ndarray, low: int, high: int, target: int) -> int:
    """The first place in array[low:high] (ascending) holding at least target, or high: steps doubling from low,
    then a binary search, so a short hop costs a few reads."""
    if low >= high or array[low] >= target:
        return low
    step = 1
    while low + step < high and array[low + step] < target:
        low += step
        step *= 2
    low, high = low + 1, min(low + step, high)  # array[low - 1] < target <= array[high] (or high is the end)
    while low < high:
        middle = (low + high) >> 1
        if array[middle] < target:
            low = middle + 1
        else:
            high = middle
    return low


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
        if sizes[term] <= n:  # walk the postings, hopping over the documents between them
            place = 0
            while at < end:
                place = _gallop(docs, place, n, post_docs[at])
                if place == n:
                    break
                if docs[place] == post_docs[at]:
                    values[place] += idf * tf_part[post_codes[at]]
                    place += 1
                at += 1
        else:  # walk the documents, hopping over the postings between them
            for place in range(n):
                at = _gallop(post_docs, at, end, docs[place])
                if at == end:
                    break
                if post_docs[at] == docs[place]:
                    values[place] += idf * tf_part[post_codes[at]]
                    at += 1
    return values


def _union(post_docs: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The documents of the terms' postings (post_docs[starts[i]:starts[i] + sizes[i]], each ascending), ascending,
    once each: a merge of the few runs."""
    heads = starts.copy()
    ends = starts + sizes
    merged = np.empty(sizes.sum(), dtype=post_docs.dtype)
    count = 0
    while True:
        pick = -1
        for run in range(heads.size):
            if heads[run] < ends[run] and (pick < 0 or post_docs[heads[run]] < post_docs[heads[pick]]):
                pick = run
        if pick < 0:
            return merged[:count]
        doc = post_docs[heads[pick]]
        heads[pick] += 1
        if count == 0 or merged[count - 1] != doc:
            merged[count] = doc
            count += 1


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
        if count == k:
            last = chosen[k - 1]
            if value < values[last]:
                continue
            key = order[docs[i]]  # read only for a value that may enter: the order's reads are scattered
            if value == values[last] and key > keys[k - 1]:
                continue
            slot = k - 1
        else:
            key = order[docs[i]]
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


def _compiled(function: F) -> F:
    """The function compiled by numba (cached on disk beside this module, releasing the GIL), or as it is."""
    return cast(F, _njit(cache=True, nogil=True)(function)) if _njit is not None else function


_gallop = _compiled(_gallop)  # before the kernels that call it: numba resolves it when they compile
exact_scores = _compiled(_exact_scores)
top = _compiled(_top)
union = _compiled(_union)
