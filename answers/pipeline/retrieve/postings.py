"""How a built index lays out its postings: per-term runs split by audience rank, (tf, length) pair codes, bounds.

Functions of whole arrays for `bm25` (build) and `update` (incremental change); nothing here scores.
"""
from collections.abc import Iterable

import numpy as np
import scipy.sparse

from answers.pipeline.records import AUDIENCE_RANK

TIERS = 3  # public, partner, internal: AUDIENCE_RANK's values
_DENSE_PAIR_TABLE = 1 << 16  # largest (max tf + 1) * (max length + 1) grid kept dense (uint16 codes)


def _ranks(audiences: Iterable[str | int]) -> np.ndarray:
    ranks = np.array(
        [AUDIENCE_RANK[audience] if isinstance(audience, str) else audience for audience in audiences], dtype=np.int64
    ).reshape(-1)
    if ranks.size and (ranks.min() < 0 or ranks.max() >= TIERS):
        raise ValueError("audience rank out of range")
    return ranks


def _postings(
    term_ids: np.ndarray, docs: np.ndarray, counts: np.ndarray, n_terms: int, n_docs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Documents and term frequencies of every term, term by term, documents ascending; plus each term's start."""
    if term_ids.size == 0:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(n_terms + 1, dtype=np.int64)
    # scipy's COO -> CSR conversion is a linear-time counting sort that sums repeated (term, doc) entries.
    matrix = scipy.sparse.csr_array((counts, (term_ids, docs)), shape=(n_terms, n_docs))
    matrix.sum_duplicates()
    return (
        matrix.indices.astype(np.int32, copy=False),
        matrix.data.astype(np.int32, copy=False),
        matrix.indptr.astype(np.int64, copy=False),
    )


def _tier_offsets(post_docs: np.ndarray, term_starts: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """Offsets of each (term, rank) run: documents ascend within a term and ranks ascend with documents."""
    n_terms = term_starts.size - 1
    offsets = np.empty(n_terms * TIERS + 1, dtype=np.int64)
    offsets[0:-1:TIERS] = term_starts[:-1]
    offsets[-1] = term_starts[-1]
    for rank in range(TIERS - 1):
        # A term's postings of rank <= rank are those before its first document of a higher rank. Those higher
        # documents are few in a mostly public corpus, so count them per term rather than scan every posting.
        boundary = int(np.searchsorted(ranks, rank, side="right"))
        higher = np.flatnonzero(post_docs >= boundary)
        higher_terms = np.searchsorted(term_starts, higher, side="right") - 1
        above = np.bincount(higher_terms, minlength=n_terms)
        offsets[rank + 1 : -1 : TIERS] = term_starts[1:] - above
    return offsets


def _term_bounds(tfs: np.ndarray, lengths: np.ndarray, term_starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each term's largest term frequency and shortest document among its postings (every term has one)."""
    if tfs.size == 0:
        return np.zeros(term_starts.size - 1, dtype=np.int32), np.zeros(term_starts.size - 1, dtype=np.int32)
    starts = term_starts[:-1]
    return (
        np.maximum.reduceat(tfs, starts).astype(np.int32),
        np.minimum.reduceat(lengths, starts).astype(np.int32),
    )


def _code_dtype(pairs: int) -> type[np.unsignedinteger] | type[np.signedinteger]:
    return np.uint16 if pairs <= 1 << 16 else np.int32


def _pair_codes(tfs: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Code each posting's (tf, document length) pair; return the codes and the (tf, length) pairs they stand for."""
    if tfs.size == 0:
        return np.zeros(0, dtype=np.uint16), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    stride = int(lengths.max()) + 1
    grid = (int(tfs.max()) + 1) * stride
    if grid <= _DENSE_PAIR_TABLE:  # the usual case: code = tf * stride + length, a small dense table
        codes = (tfs.astype(np.int32) * np.int32(stride) + lengths.astype(np.int32)).astype(_code_dtype(grid))
        pair_tf, pair_length = np.divmod(np.arange(grid, dtype=np.int64), stride)
        return codes, pair_tf, pair_length
    pairs, codes = np.unique(tfs.astype(np.int64) * stride + lengths, return_inverse=True)
    pair_tf, pair_length = np.divmod(pairs, stride)
    return codes.astype(_code_dtype(pairs.size)), pair_tf, pair_length
