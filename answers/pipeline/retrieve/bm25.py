"""BM25 Okapi over an inverted index, scoring exactly as rank-bm25's `BM25Okapi`, with statistics per tier (§3, §5.1).

A tier is a maximum audience rank (0 public, 1 partner, 2 internal). A tier sees the documents whose rank is at
most its own, and N, the average length, document frequencies and idf are computed over exactly those, so a
caller's scores are the same whether or not documents above its tier exist.

Layout: documents are numbered by (audience rank, chunk id), so a tier's documents are a prefix 0..N_t-1 and so
is the part of each term's postings it sees. A query reads only its own terms' postings. Each posting stores a
code for its (term frequency, document length) pair; per tier, a small table maps the code to rank-bm25's
tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgdl)), so scoring a term is one lookup, one multiplication by
its idf and one scatter-add, with the same float operations as rank-bm25 (scores match it bit for bit on one tier).

Hits are the documents with a non-zero score, best first, ties by chunk id. Scores can be negative: as in
rank-bm25, a term found in more than half of the documents gets the floor idf epsilon * average idf, which is
negative when the average idf is (tiny corpora, such as a single document).
"""
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import scipy.sparse

from answers.pipeline.records import AUDIENCE_RANK

TIERS = 3  # public, partner, internal: AUDIENCE_RANK's values
_DENSE_PAIR_TABLE = 1 << 20  # largest (max tf + 1) * (max length + 1) grid kept dense instead of de-duplicated


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk and its BM25 score."""

    chunk_id: str
    score: float


@dataclass(frozen=True)
class _Tier:
    doc_count: int
    idf: np.ndarray  # per term; 0.0 for terms outside the tier's vocabulary
    tf_part: np.ndarray  # per (tf, length) pair code: tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))


class _Vocabulary(dict[str, int]):
    """Term -> id, numbering a new term on first lookup (so ids follow first appearance, as rank-bm25's dict)."""

    def __missing__(self, term: str) -> int:
        term_id = self[term] = len(self)
        return term_id


class Bm25Index:
    """An immutable BM25 Okapi index; make one with `build`, `retrieve.update.updated_index` or
    `retrieve.persist.read_index`.

    Its arrays are public for those two modules of this package and read-only for everyone: nothing may change them.
    """

    def __init__(
        self,
        *,
        chunk_ids: list[str],
        ranks: np.ndarray,
        lengths: np.ndarray,
        chunk_order: np.ndarray,
        terms: list[str],
        offsets: np.ndarray,
        post_docs: np.ndarray,
        post_codes: np.ndarray,
        pair_tf: np.ndarray,
        pair_length: np.ndarray,
        k1: float,
        b: float,
        epsilon: float,
    ) -> None:
        self.k1, self.b, self.epsilon = float(k1), float(b), float(epsilon)
        self.chunk_ids = chunk_ids  # by internal document number: (rank, chunk id) order
        self.ranks = ranks
        self.lengths = lengths
        self.chunk_order = chunk_order  # position of each document in chunk-id order: the tie-break
        self.terms = terms
        self.term_ids = {term: i for i, term in enumerate(terms)}
        self.offsets = offsets  # postings of (term t, rank r): [offsets[3t + r], offsets[3t + r + 1])
        self.post_docs = post_docs
        self.post_codes = post_codes
        self.pair_tf = pair_tf
        self.pair_length = pair_length
        self._check_shape()
        self._tiers = tuple(self._tier_stats(rank) for rank in range(TIERS))

    @classmethod
    def build(
        cls,
        docs: Iterable[tuple[str, str | int, list[str]]],
        *,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
    ) -> "Bm25Index":
        """Index (chunk_id, audience name or rank, tokens) triples; chunk ids must be unique."""
        rows = list(docs)
        chunk_ids = [chunk_id for chunk_id, _, _ in rows]
        if len(set(chunk_ids)) != len(chunk_ids):
            raise ValueError("chunk ids must be unique")
        ranks = _ranks(audience for _, audience, _ in rows)
        # Internal document numbers follow (rank, chunk id); chunk_order keeps each one's chunk-id position.
        by_chunk = np.array(sorted(range(len(rows)), key=chunk_ids.__getitem__), dtype=np.int64)
        internal = by_chunk[np.argsort(ranks[by_chunk], kind="stable")]
        chunk_order = np.empty(len(rows), dtype=np.int32)
        chunk_order[by_chunk] = np.arange(len(rows), dtype=np.int32)
        chunk_order = chunk_order[internal]
        rows = [rows[i] for i in internal.tolist()]  # so term ids follow first appearance in this order
        ranks = ranks[internal].astype(np.int8)
        n_docs = len(rows)
        lengths = np.fromiter((len(tokens) for _, _, tokens in rows), dtype=np.int64, count=n_docs)

        stream: list[str] = []
        for _, _, tokens in rows:
            stream.extend(tokens)
        vocabulary = _Vocabulary()
        term_of_token = np.fromiter(map(vocabulary.__getitem__, stream), dtype=np.int32, count=len(stream))
        del stream
        terms = list(vocabulary)
        doc_of_token = np.repeat(np.arange(n_docs, dtype=np.int32), lengths)
        post_docs, tfs, term_starts = _postings(
            term_of_token, doc_of_token, np.ones(term_of_token.size, dtype=np.int32), len(terms), n_docs
        )
        del term_of_token, doc_of_token
        post_codes, pair_tf, pair_length = _pair_codes(tfs, lengths[post_docs])
        return cls(
            chunk_ids=[chunk_id for chunk_id, _, _ in rows],
            ranks=ranks,
            lengths=lengths,
            chunk_order=chunk_order,
            terms=terms,
            offsets=_tier_offsets(post_docs, term_starts, ranks),
            post_docs=post_docs,
            post_codes=post_codes,
            pair_tf=pair_tf,
            pair_length=pair_length,
            k1=k1,
            b=b,
            epsilon=epsilon,
        )

    def _tier_stats(self, max_rank: int) -> _Tier:
        doc_count = int(np.count_nonzero(self.ranks <= max_rank))
        n_terms = len(self.terms)
        idf = np.zeros(n_terms, dtype=np.float64)
        tf_part = np.zeros(self.pair_tf.size, dtype=np.float64)
        if doc_count == 0:
            return _Tier(0, idf, tf_part)
        avgdl = int(self.lengths[:doc_count].sum()) / doc_count
        if avgdl > 0:
            # rank-bm25: q_freq * (k1 + 1) / (q_freq + k1 * (1 - b + b * doc_len / avgdl)), same operations
            tf = self.pair_tf
            with np.errstate(divide="ignore", invalid="ignore"):  # the unused tf = 0 row may divide 0 by 0
                tf_part = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * self.pair_length / avgdl))
        dfs = (self.offsets[max_rank + 1 :: TIERS] - self.offsets[0 : n_terms * TIERS : TIERS]).tolist()
        # rank-bm25's _calc_idf, term by term in first-appearance order, so the average sums the same way.
        idf_sum, present, log = 0.0, 0, math.log
        values = [0.0] * n_terms
        for term_id, df in enumerate(dfs):
            if df:
                value = log(doc_count - df + 0.5) - log(df + 0.5)
                values[term_id] = value
                idf_sum += value
                present += 1
        if present:
            idf = np.array(values, dtype=np.float64)
            floor = self.epsilon * (idf_sum / present)
            idf[idf < 0] = floor  # absent terms hold 0.0, never negative, so only real terms get the floor
        return _Tier(doc_count, idf, tf_part)

    def _accumulate(self, query_tokens: list[str], max_rank: int) -> np.ndarray | None:
        """Scores of the tier's documents (by internal number), or None when no query term scores."""
        tier = self._tiers[_checked_rank(max_rank)]
        scores = None
        for token in query_tokens:  # a repeated term counts each time, as in rank-bm25
            term_id = self.term_ids.get(token)
            if term_id is None:
                continue
            idf = tier.idf[term_id]
            start, end = self.offsets[term_id * TIERS], self.offsets[term_id * TIERS + max_rank + 1]
            if start == end or idf == 0.0:
                continue
            docs, codes = self.post_docs[start:end], self.post_codes[start:end]
            small_table = tier.tf_part.size <= codes.size  # then scale it once and look up (same products)
            contribution = (idf * tier.tf_part)[codes] if small_table else idf * tier.tf_part[codes]
            if scores is None:
                scores = np.zeros(tier.doc_count, dtype=np.float64)
                scores[docs] = contribution
            else:
                np.add.at(scores, docs, contribution)  # unbuffered, and faster than scores[docs] += in numpy 2
        return scores

    def scores(self, query_tokens: list[str], *, max_rank: int) -> dict[str, float]:
        """Every non-zero score among the tier's documents, by chunk id."""
        scores = self._accumulate(query_tokens, max_rank)
        if scores is None:
            return {}
        return {self.chunk_ids[i]: float(scores[i]) for i in np.flatnonzero(scores).tolist()}

    def search(self, query_tokens: list[str], *, max_rank: int, k: int) -> list[Hit]:
        """The k best of the tier's documents by score, ties by chunk id; zero scores are never returned."""
        if k <= 0:
            return []
        scores = self._accumulate(query_tokens, max_rank)
        if scores is None:
            return []
        candidates = _candidates(scores, k)
        values = scores[candidates]
        if candidates.size > k:
            kth = np.partition(values, candidates.size - k)[candidates.size - k]
            keep = values >= kth  # every document tied at the boundary stays, so the chunk id decides
            candidates, values = candidates[keep], values[keep]
        order = np.lexsort((self.chunk_order[candidates], -values))[:k]
        return [Hit(self.chunk_ids[i], float(scores[i])) for i in candidates[order].tolist()]

    def has_term(self, term: str, *, max_rank: int) -> bool:
        """Whether the term occurs in any of the tier's documents."""
        term_id = self.term_ids.get(term)
        if term_id is None:
            return False
        return bool(self.offsets[term_id * TIERS + _checked_rank(max_rank) + 1] > self.offsets[term_id * TIERS])

    def doc_count(self, *, max_rank: int) -> int:
        """How many documents the tier sees."""
        return self._tiers[_checked_rank(max_rank)].doc_count

    def __len__(self) -> int:
        return len(self.chunk_ids)

    @property
    def term_count(self) -> int:
        """How many distinct terms the whole index holds."""
        return len(self.terms)

    def memory_bytes(self) -> int:
        """Approximate memory the index holds: its arrays, strings, lists and the term dictionary."""
        arrays = [self.ranks, self.lengths, self.chunk_order, self.offsets, self.post_docs, self.post_codes]
        arrays += [self.pair_tf, self.pair_length]
        arrays += [array for tier in self._tiers for array in (tier.idf, tier.tf_part)]
        strings = sum(len(s) + 49 for s in self.chunk_ids) + sum(len(s) + 49 for s in self.terms)
        containers = 8 * (len(self.chunk_ids) + len(self.terms)) + 100 * len(self.terms)  # lists, dict slots
        return sum(array.nbytes for array in arrays) + strings + containers

    def _check_shape(self) -> None:
        n_docs, n_terms = len(self.chunk_ids), len(self.terms)
        if (
            self.ranks.shape != (n_docs,)
            or self.lengths.shape != (n_docs,)
            or self.chunk_order.shape != (n_docs,)
            or self.offsets.shape != (n_terms * TIERS + 1,)
            or self.post_docs.shape != self.post_codes.shape
            or self.pair_tf.shape != self.pair_length.shape
            or int(self.offsets[-1]) != self.post_docs.size
            or (self.post_docs.size and int(self.post_docs.max()) >= n_docs)
            or (self.post_codes.size and int(self.post_codes.max()) >= self.pair_tf.size)
            or (n_docs and bool(np.any(np.diff(self.ranks) < 0)))
        ):
            raise ValueError("index arrays are inconsistent")


def _checked_rank(max_rank: int) -> int:
    if not 0 <= max_rank < TIERS:
        raise ValueError(f"max_rank must be 0..{TIERS - 1}, not {max_rank!r}")
    return max_rank


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


def _pair_codes(tfs: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Code each posting's (tf, document length) pair; return the codes and the (tf, length) pairs they stand for."""
    if tfs.size == 0:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    stride = int(lengths.max()) + 1
    grid = (int(tfs.max()) + 1) * stride
    if grid <= _DENSE_PAIR_TABLE:  # the usual case: code = tf * stride + length, a small dense table
        codes = tfs.astype(np.int32) * np.int32(stride) + lengths.astype(np.int32)
        pair_tf, pair_length = np.divmod(np.arange(grid, dtype=np.int64), stride)
        return codes, pair_tf, pair_length
    pairs, codes = np.unique(tfs.astype(np.int64) * stride + lengths, return_inverse=True)
    pair_tf, pair_length = np.divmod(pairs, stride)
    return codes.astype(np.int32), pair_tf, pair_length


def _candidates(scores: np.ndarray, k: int) -> np.ndarray:
    """Documents that may be in the top k: every non-zero score at or above a lower bound on the k-th best."""
    sample_step = scores.size // (100 * k)
    if sample_step >= 2:
        # The k-th best of a sample is at most the k-th best of all, so nothing that belongs in the top k is cut.
        sample = scores[::sample_step]
        bound = np.partition(sample, sample.size - k)[sample.size - k]
        if bound > 0:
            return np.flatnonzero(scores >= bound)
    return np.flatnonzero(scores)
