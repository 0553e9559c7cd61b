"""Where documents stand in one query's ascending document list, by a per-thread map instead of binary search.

Scoring a query's candidates places each term's postings among them. `np.searchsorted` costs a binary search per
candidate (about 20 ns each here); writing each candidate's place into an array indexed by document number and
reading it back for each posting costs a gather per posting (about 1.5 ns). The array is scratch memory, one per
thread and grown to the largest numbering seen. It holds -1 everywhere but at the documents of the one `Places`
that wrote it last (that one erases its places before the next writes its own), so a posting's place is found, or
known absent, by one read. One `Places` at a time per thread may use it: one that writes it later retires the
first, which then refuses.
"""
import threading

import numpy as np

# Looking up postings by the map costs about 1.25 binary-search steps a posting (measured: one gather and one
# comparison): it pays when the candidates' binary searches, log2(postings) steps each, cost more than that.
MAP_STEPS = 1.25

_local = threading.local()


def _scratch(extent: int) -> np.ndarray:
    """This thread's scratch array, at least extent long, -1 everywhere (its last writer's places erased)."""
    scratch: np.ndarray | None = getattr(_local, "scratch", None)
    if scratch is None or scratch.size < extent:
        _local.owner = None
        scratch = _local.scratch = np.full(max(extent, 1), -1, dtype=np.int32)
    else:
        owner: Places | None = getattr(_local, "owner", None)
        if owner is not None:
            scratch[owner._indexes] = -1
            _local.owner = None
    return scratch


def _counting(size: int) -> np.ndarray:
    """0, 1, ..., size - 1 as int32: a read-only view of this thread's longest such array (no allocation a query)."""
    counting: np.ndarray | None = getattr(_local, "counting", None)
    if counting is None or counting.size < size:
        counting = _local.counting = np.arange(max(size, 4096), dtype=np.int32)
        counting.flags.writeable = False
    return counting[:size]


class Places:
    """The places of one ascending array of distinct document numbers (all below extent), for its postings."""

    def __init__(self, docs: np.ndarray, extent: int, indexes: np.ndarray | None = None) -> None:
        """indexes, if given, is docs as intp already (the caller's copy, shared rather than made again)."""
        self.docs = docs
        self._extent = extent
        self._map: np.ndarray | None = None  # written on first use: a query may need only binary searches
        self._indexes = docs  # as intp once written: a fancy write with int32 indexes takes several times as long
        self._given = indexes

    def _checked(self) -> np.ndarray:
        if self._map is None:
            self._map = _scratch(self._extent)
            self._indexes = self._given if self._given is not None else self.docs.astype(np.intp, copy=False)
            self._map[self._indexes] = _counting(self.docs.size)
            _local.owner = self
        elif getattr(_local, "owner", None) is not self:
            raise RuntimeError("another Places in this thread has reused the scratch map")
        return self._map

    def of_all(self, postings: np.ndarray) -> np.ndarray:
        """The places of postings (document numbers) that all are among docs."""
        return self._checked().take(postings)

    def lookup(self, postings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of docs the postings (ascending) hold: their places in docs and their indexes in postings, as
        `maxscore.lookup_postings` gives them."""
        if not postings.size or not self.docs.size:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        if postings.size * MAP_STEPS > self.docs.size * np.log2(max(postings.size, 2)):
            at = np.searchsorted(postings, self.docs.astype(postings.dtype, copy=False))  # else it casts postings
            found = (postings.take(at, mode="clip") == self.docs).nonzero()[0]
            return found, at.take(found)
        candidate = self._checked().take(postings)  # -1 where the posting is not among docs
        in_postings = (candidate >= 0).nonzero()[0]  # np.flatnonzero's places, without its wrapper's cost
        return candidate.take(in_postings), in_postings
