"""BM25 Okapi over an inverted index, scoring exactly as rank-bm25's `BM25Okapi`, with statistics per tier (§3, §5.1).

A tier is a maximum audience rank (0 public, 1 partner, 2 internal). A tier sees the documents whose rank is at
most its own, and N, the average length, document frequencies and idf are computed over exactly those, so a
caller's scores are the same whether or not documents above its tier exist.

Layout: documents are numbered by (audience rank, chunk id), so a tier's documents are a prefix 0..N_t-1 and so
is the part of each term's postings it sees. A query reads only its own terms' postings. Each posting stores a
code for its (term frequency, document length) pair; per tier, a small table maps the code to rank-bm25's
tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgdl)), so scoring a term is one lookup, one multiplication by
its idf and one scatter-add, with the same float operations as rank-bm25 (scores match it bit for bit on one tier).

`search` finds its top k by exact MaxScore pruning (`retrieve.maxscore`) once a query's postings are many: each
term's bound comes from its largest term frequency and shortest document, kept per term. First the documents of
the rarest terms (the seed) are scored exactly; when the other terms' bounds sum below their k-th best, which is
the usual case, the top k is the seed's and the query is done in a few numpy calls per term; otherwise the seed's
documents at or above that k-th best are kept with their exact scores, and only documents of none of the seed's
terms are narrowed from it (`maxscore.reaching_docs`: the seed's terms add nothing to them, so the other terms'
bounds alone decide), first skipping the blocks of 128 document numbers where those terms' block-max bounds
(`retrieve.blockmax`) sum below it and bounding each term by its largest over the blocks left, then scored.
Postings take 6 bytes
(int32 document, uint16 pair code) while the corpus has at most 65,536 distinct (tf, length) pairs, else 8.

Hits are the documents with a non-zero score, best first, ties by chunk id. Scores can be negative: as in
rank-bm25, a term found in more than half of the documents gets the floor idf epsilon * average idf, which is
negative when the average idf is (tiny corpora, such as a single document).
"""
import bisect
import math
from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass, field, replace

import numpy as np

from answers.pipeline.retrieve import kernel
from answers.pipeline.retrieve.blockmax import BLOCK_SHIFT, block_tables
from answers.pipeline.retrieve.maxscore import (
    KEPT_COST,
    SEED_POSTINGS,
    QueryTerm,
    _safe,
    _union,
    at_least_kth,
    candidate_docs,
    lookup_postings,
    reaching_docs,
    seed_count,
)
from answers.pipeline.retrieve.positions import Places
from answers.pipeline.retrieve.postings import TIERS, _pair_codes, _postings, _ranks, _term_bounds, _tier_offsets

_KNOWN_TOKENS = 4096  # tokens a tier remembers before it forgets them all (a few hundred bytes each)
PRUNE_FROM = 20_000  # postings a query must read before pruning is worth its bookkeeping
_DENSE_SHARE = 4  # a term in at least 1/4 of the documents also gets a code per document, for O(1) look-ups
_SPARSE_SHARE = 16  # a query with fewer postings than 1/16 of the documents scores its documents alone
_FEW_ORDERED = 32  # candidates of one rank ordered by a Python sort rather than np.lexsort
_DENSE_PASS = 0.25  # adding a column costs about this much a document, against 1 a posting scattered
_BOUND_MARGIN = 1e-9  # relative, as maxscore's: rounding in a sum of a few dozen float64 terms is below 1e-14


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk and its BM25 score."""

    chunk_id: str
    score: float


@dataclass(frozen=True)
class _Tier:
    """One tier's statistics as one segment (the main one or the delta) scores with them: N, avgdl and df are the
    whole index's, the arrays are indexed by the segment's own term ids and pair codes."""

    extent: int  # the segment's documents the tier sees: a prefix of its numbering (removed ones included)
    doc_count: int  # N: the documents the whole index shows the tier
    df: np.ndarray  # per term: documents holding it in the whole index (main minus removed plus delta)
    idf: np.ndarray  # per term; 0.0 for terms outside the tier's vocabulary
    tf_part: np.ndarray  # per (tf, length) pair code: tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))
    bound: np.ndarray  # per term: an upper bound of idf * tf part over its postings (0.0 when idf <= 0)
    # token -> its scoring term in this tier (None: it scores nothing), filled as queries ask; a cache, not state
    scoring: dict[str, "_Scoring | None"] = field(default_factory=dict, compare=False, repr=False)
    # idf -> idf * tf part of the pair codes up to the largest tf of the column terms with that idf asked so far:
    # every term in more than half of the documents has the floor idf, so the commonest terms share one table
    scaled: dict[float, np.ndarray] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class _Scoring:
    """One scoring query token in one tier: its term, idf, bound and postings (views), and its per-document column
    if any."""

    term_id: int
    idf: np.float64
    bound: float  # tier.bound of the term, once (not times the query's repeats)
    docs: np.ndarray  # the tier's part of the term's postings: document numbers ascending
    codes: np.ndarray  # their pair codes
    column: np.ndarray | None
    blocks: np.ndarray | None = None  # its block-max pair codes (`retrieve.blockmax`), if it is common enough
    # with a column: idf * tf part of every pair code up to its largest tf, so a look-up needs no multiplication
    # (the same products); a view of the tier's table for its idf (`_Tier.scaled`), shared by the terms with that
    # idf so their look-ups read one table, not one each
    scaled: np.ndarray | None = None
    start: int = 0  # where docs and codes begin in the segment's post_docs and post_codes
    row: int = -1  # the column's row in the segment's column table (-1: none)


@dataclass(frozen=True)
class _Seed:
    """A query's seed that does not settle it: the k-th best less the margin, the seed's documents, its best ones
    (every one at or above its k-th best, the only seed documents that can be in the top k) and their scores."""

    threshold: float
    docs: np.ndarray
    best: np.ndarray
    values: np.ndarray
    term_ids: frozenset[int]


class _Vocabulary(dict[str, int]):
    """Term -> id, numbering a new term on first lookup (so ids follow first appearance, as rank-bm25's dict)."""

    def __missing__(self, term: str) -> int:
        term_id = self[term] = len(self)
        return term_id


class Bm25Index:
    """An immutable BM25 Okapi index; make one with `build`, `retrieve.update.updated_index` or
    `retrieve.persist.read_index`.

    Its arrays are public for those two modules of this package and read-only for everyone: nothing may change them.
    They are the main segment. An update leaves them as they are and keeps its change beside them: `removed`, the
    main documents taken out (masked when scoring), and `delta_rows`, the chunks added since, indexed as a small
    segment of their own. N, avgdl and every df are computed over main minus removed plus delta, so scores are
    those of an index built afresh from the same chunks; `retrieve.update` merges the delta into main past a size.
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
        term_max_tf: np.ndarray,
        term_min_length: np.ndarray,
        k1: float,
        b: float,
        epsilon: float,
        removed: np.ndarray | None = None,
        delta_rows: Sequence[tuple[str, int, list[str]]] = (),
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
        self.term_max_tf = term_max_tf  # per term: bounds for pruning, valid (if looser) after chunks are removed
        self.term_min_length = term_min_length
        self._check_shape()
        self._rank_starts = np.searchsorted(ranks, np.arange(TIERS + 1), side="left").tolist()
        self._column_table, self._columns = self._dense_columns()
        self._column_rows = {term_id: row for row, term_id in enumerate(self._columns)}
        self._blocks = block_tables(
            post_docs=post_docs,
            post_codes=post_codes,
            term_starts=offsets[0::TIERS],
            pair_tf=pair_tf,
            pair_length=pair_length,
            n_docs=len(chunk_ids),
        )
        self._set_change(removed, delta_rows, previous=None)

    def with_change(
        self, *, removed: np.ndarray, delta_rows: Sequence[tuple[str, int, list[str]]]
    ) -> "Bm25Index":
        """This index's main segment (arrays and look-up tables shared, not copied) with other removed documents
        and another delta; what an update makes. The removed documents' df are counted again only for those not
        removed here already."""
        changed = object.__new__(Bm25Index)
        changed.__dict__.update({name: self.__dict__[name] for name in _MAIN_FIELDS})
        changed._set_change(removed, delta_rows, previous=self)
        return changed

    def _set_change(
        self,
        removed: np.ndarray | None,
        delta_rows: Sequence[tuple[str, int, list[str]]],
        previous: "Bm25Index | None",
    ) -> None:
        n_docs = len(self.chunk_ids)
        self.removed = np.unique(np.asarray(removed if removed is not None else (), dtype=np.int64))
        if self.removed.size and (self.removed[0] < 0 or self.removed[-1] >= n_docs):
            raise ValueError("removed documents out of range")
        self._removed_mask: np.ndarray | None = None
        self._gone_df = np.zeros((TIERS, len(self.terms)), dtype=np.int64)  # removed docs' df per term by rank
        if self.removed.size:
            self._removed_mask = np.zeros(n_docs, dtype=bool)
            self._removed_mask[self.removed] = True
            fresh = self.removed
            earlier = previous._removed_mask if previous is not None else None
            if previous is not None and earlier is not None and np.all(self._removed_mask[previous.removed]):
                self._gone_df = previous._gone_df.copy()  # those still removed keep their counts
                fresh = self.removed[~earlier[self.removed]]
            self._gone_df += self._term_counts(fresh)
        self.delta_rows = tuple(delta_rows)  # (chunk id, rank, tokens) in (rank, chunk id) order
        self._delta = (
            Bm25Index.build(self.delta_rows, k1=self.k1, b=self.b, epsilon=self.epsilon) if self.delta_rows else None
        )
        self._delta_terms = self._delta_term_numbers()
        stats = [self._tier_stats(rank) for rank in range(TIERS)]
        self._tiers = tuple(main for main, _ in stats)
        self._delta_tiers = tuple(delta for _, delta in stats)

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
        lengths = np.fromiter((len(tokens) for _, _, tokens in rows), dtype=np.int32, count=n_docs)

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
        post_lengths = lengths[post_docs]
        term_max_tf, term_min_length = _term_bounds(tfs, post_lengths, term_starts)
        post_codes, pair_tf, pair_length = _pair_codes(tfs, post_lengths)
        del tfs, post_lengths
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
            term_max_tf=term_max_tf,
            term_min_length=term_min_length,
            k1=k1,
            b=b,
            epsilon=epsilon,
        )

    def _dense_columns(self) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """For the commonest terms, each document's pair code (tf 0 where absent, whose tf part is 0.0): a table
        with a row per such term, and each term's row (a view) by term id.

        Pruned queries look these terms up for their candidates by indexing instead of binary search. Only with the
        dense pair table, where a (0, length) code exists for every length.
        """
        n_docs = len(self.chunk_ids)
        none = np.zeros((0, n_docs), dtype=self.post_codes.dtype)
        if not n_docs or not self.pair_tf.size or self.k1 <= 0:  # k1 = 0 makes the tf 0 part 0 / 0
            return none, {}
        stride = int(self.pair_length[-1]) + 1
        if self.pair_tf.size != (int(self.pair_tf[-1]) + 1) * stride:
            return none, {}
        starts = self.offsets[0::TIERS]
        common = np.flatnonzero(np.diff(starts) * _DENSE_SHARE >= n_docs).tolist()
        # code of (tf 0, length) is the length itself
        table = np.broadcast_to(self.lengths.astype(self.post_codes.dtype), (len(common), n_docs)).copy()
        for row, term_id in enumerate(common):
            start, end = int(starts[term_id]), int(starts[term_id + 1])
            table[row, self.post_docs[start:end].astype(np.intp)] = self.post_codes[start:end]  # intp: faster
        return table, {term_id: table[row] for row, term_id in enumerate(common)}

    def _delta_term_numbers(self) -> np.ndarray:
        """Each delta term's number in the whole index: its main id, or the next one after main's terms."""
        if self._delta is None:
            return np.zeros(0, dtype=np.int64)
        numbers = np.empty(len(self._delta.terms), dtype=np.int64)
        fresh = len(self.terms)
        for i, term in enumerate(self._delta.terms):
            main_id = self.term_ids.get(term)
            if main_id is None:
                main_id, fresh = fresh, fresh + 1
            numbers[i] = main_id
        return numbers

    def _term_counts(self, docs: np.ndarray) -> np.ndarray:
        """How many of these documents (ascending) hold each term, by rank: a (TIERS, terms) array.

        Documents come in runs of consecutive numbers (a source's chunks are neighbours in chunk-id order), and a
        term's postings ascend, so a run's count for every term is the difference of two binary searches made for
        all terms at once; scattered documents are counted by one pass over the postings instead.
        """
        counts = np.zeros((TIERS, len(self.terms)), dtype=np.int64)
        if not docs.size:
            return counts
        ranks = self.ranks[docs]
        breaks = np.flatnonzero((np.diff(docs) != 1) | (np.diff(ranks) != 0)) + 1
        firsts, lasts = docs[np.concatenate(([0], breaks))], docs[np.concatenate((breaks - 1, [docs.size - 1]))]
        starts, ends = self.offsets[0:-1:TIERS], self.offsets[TIERS::TIERS]
        if firsts.size * starts.size * 4 > self.post_docs.size:
            mask = np.zeros(len(self.chunk_ids), dtype=bool)
            mask[docs] = True
            step = 1 << 23  # in slices: no temporary the size of all postings
            positions = np.concatenate([
                np.flatnonzero(mask[self.post_docs[first : first + step]]) + first
                for first in range(0, self.post_docs.size, step)
            ])
            terms = np.searchsorted(starts, positions, side="right") - 1
            np.add.at(counts, (self.ranks[self.post_docs[positions]].astype(np.int64), terms), 1)
            return counts
        targets = np.concatenate((firsts, lasts + 1))
        at = _first_at_least(self.post_docs, starts, ends, targets)
        for run, rank in enumerate(self.ranks[firsts].tolist()):
            counts[rank] += at[firsts.size + run] - at[run]
        return counts

    def _tier_stats(self, max_rank: int) -> tuple[_Tier, _Tier | None]:
        """The tier's statistics over the whole index, for the main segment and for the delta."""
        n_main_terms = len(self.terms)
        n_terms = max(n_main_terms, int(self._delta_terms.max()) + 1 if self._delta_terms.size else 0)
        extent = self._rank_starts[max_rank + 1]
        gone = self.removed[: int(np.searchsorted(self.removed, extent))]
        doc_count = extent - gone.size
        total_length = int(self.lengths[:extent].sum()) - int(self.lengths[gone].sum())
        df = np.zeros(n_terms, dtype=np.int64)
        df[:n_main_terms] = self.offsets[max_rank + 1 :: TIERS] - self.offsets[0 : n_main_terms * TIERS : TIERS]
        df[:n_main_terms] -= self._gone_df[: max_rank + 1].sum(axis=0)
        delta, delta_extent = self._delta, 0
        if delta is not None:
            delta_extent = delta._rank_starts[max_rank + 1]
            doc_count += delta_extent
            total_length += int(delta.lengths[:delta_extent].sum())
            n_delta_terms = len(delta.terms)
            delta_df = delta.offsets[max_rank + 1 :: TIERS] - delta.offsets[0 : n_delta_terms * TIERS : TIERS]
            df[self._delta_terms] += delta_df  # delta term numbers are distinct
        idf = np.zeros(n_terms, dtype=np.float64)
        avgdl = total_length / doc_count if doc_count else 0.0
        if doc_count:
            # rank-bm25's _calc_idf: math.log of each, then a sum in first-appearance (term id) order, which cumsum
            # reproduces operation for operation (np.sum would sum pairwise and differ in the last bits).
            present = np.flatnonzero(df)
            if present.size:
                # math.log (not np.log, which may differ in the last bit) once per distinct df: they are few
                distinct, inverse = np.unique(df[present], return_inverse=True)
                distinct_df = distinct.astype(np.float64)
                log = math.log
                rare = np.fromiter(
                    map(log, (doc_count - distinct_df + 0.5).tolist()), dtype=np.float64, count=distinct.size
                )
                rare -= np.fromiter(map(log, (distinct_df + 0.5).tolist()), dtype=np.float64, count=distinct.size)
                values = rare[inverse]
                idf[present] = values
                floor = self.epsilon * (float(np.cumsum(values)[-1]) / present.size)
                idf[idf < 0] = floor  # absent terms hold 0.0, never negative, so only real terms get the floor
        main = self._segment_tier(extent, doc_count, df[:n_main_terms], idf[:n_main_terms], avgdl)
        if delta is None:
            return main, None
        numbers = self._delta_terms
        return main, delta._segment_tier(delta_extent, doc_count, df[numbers], idf[numbers], avgdl)

    def _segment_tier(self, extent: int, doc_count: int, df: np.ndarray, idf: np.ndarray, avgdl: float) -> _Tier:
        """This segment's tf parts and bounds under the whole index's N, avgdl, df and idf."""
        tf_part = np.zeros(self.pair_tf.size, dtype=np.float64)
        bound = np.zeros(idf.size, dtype=np.float64)
        if doc_count and avgdl > 0:
            # rank-bm25: q_freq * (k1 + 1) / (q_freq + k1 * (1 - b + b * doc_len / avgdl)), same operations
            tf = self.pair_tf
            with np.errstate(divide="ignore", invalid="ignore"):  # the unused tf = 0 row may divide 0 by 0
                tf_part = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * self.pair_length / avgdl))
            tf, length = self.term_max_tf.astype(np.float64), self.term_min_length
            with np.errstate(divide="ignore", invalid="ignore"):
                part = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * length / avgdl))
            bound = np.where(idf > 0, idf * np.nan_to_num(part), 0.0)
        return _Tier(extent, doc_count, df.astype(np.int32), idf, tf_part, bound)

    def _accumulate(self, query_tokens: list[str], max_rank: int, tier: _Tier) -> np.ndarray | None:
        """This segment's scores of the tier's documents (by internal number, removed ones 0.0), or None when no
        query term scores."""
        scores = None
        for token in query_tokens:  # a repeated term counts each time, as in rank-bm25
            term_id = self.term_ids.get(token)
            if term_id is None:
                continue
            idf = tier.idf[term_id]
            start, end = self.offsets[term_id * TIERS], self.offsets[term_id * TIERS + max_rank + 1]
            if start == end or idf == 0.0:
                continue
            column = self._columns.get(term_id)
            if column is not None:  # a common term: every document's code, absent ones adding idf * 0.0 = 0.0
                contribution = (idf * tier.tf_part).take(column[: tier.extent])  # the same products, one per document
                if scores is None:
                    scores = contribution
                else:
                    scores += contribution  # x + 0.0 is x: the absent documents keep their sums bit for bit
                continue
            docs, codes = self.post_docs[start:end].astype(np.intp), self.post_codes[start:end]  # intp: faster writes
            small_table = tier.tf_part.size <= codes.size  # then scale it once and look up (same products)
            contribution = (idf * tier.tf_part).take(codes) if small_table else idf * tier.tf_part.take(codes)
            if scores is None:
                scores = np.zeros(tier.extent, dtype=np.float64)
                scores[docs] = contribution
            else:
                np.add.at(scores, docs, contribution)  # unbuffered, and faster than scores[docs] += in numpy 2
        if scores is not None and self.removed.size:
            scores[self.removed[: int(np.searchsorted(self.removed, tier.extent))]] = 0.0
        return scores

    def _segments(self, max_rank: int) -> list[tuple["Bm25Index", _Tier]]:
        """The main segment and the delta (if any), each with the tier's statistics as it scores with them."""
        rank = _checked_rank(max_rank)
        segments = [(self, self._tiers[rank])]
        delta_tier = self._delta_tiers[rank]
        if self._delta is not None and delta_tier is not None:
            segments.append((self._delta, delta_tier))
        return segments

    def scores(self, query_tokens: list[str], *, max_rank: int) -> dict[str, float]:
        """Every non-zero score among the tier's documents, by chunk id."""
        found: dict[str, float] = {}
        for segment, tier in self._segments(max_rank):
            scores = segment._accumulate(query_tokens, max_rank, tier)
            if scores is not None:
                found.update({segment.chunk_ids[i]: float(scores[i]) for i in np.flatnonzero(scores).tolist()})
        return found

    def search(self, query_tokens: list[str], *, max_rank: int, k: int, prune_from: int = PRUNE_FROM) -> list[Hit]:
        """The k best of the tier's documents by score, ties by chunk id; zero scores are never returned.

        Queries reading at least `prune_from` postings are pruned where it pays: same hits, same scores. With 0,
        every query that can be pruned soundly is, whether it pays or not (the tests compare both paths).
        Each segment gives its own exact top k under the shared statistics; the best k of those are the index's.
        """
        if k <= 0:
            return []
        if self._delta is None:  # main alone: no list of segments to build
            return self._segment_search(query_tokens, max_rank, k, prune_from, self._tiers[_checked_rank(max_rank)])
        segments = self._segments(max_rank)
        hits = self._segment_search(query_tokens, max_rank, k, prune_from, segments[0][1])
        if len(segments) == 1:
            return hits
        delta, tier = segments[1]
        hits += delta._segment_search(query_tokens, max_rank, k, prune_from, tier)
        return sorted(hits, key=lambda hit: (-hit.score, hit.chunk_id))[:k]

    def _segment_search(
        self, query_tokens: list[str], max_rank: int, k: int, prune_from: int, tier: _Tier
    ) -> list[Hit]:
        """This segment's exact top k under the tier's statistics."""
        scoring = self._scoring_terms(query_tokens, max_rank, tier)
        if not scoring:
            return []
        postings, cost = 0, 0.0  # cost: what the exhaustive path costs, in scattered postings
        column_cost = tier.extent * _DENSE_PASS
        for term in scoring:
            size = term.docs.size
            postings += size
            cost += size if term.column is None else column_cost
        if self._prunable(scoring, postings, prune_from):  # score only the documents that may reach the top k
            eager = prune_from == 0
            seeded = self._seeded_top(scoring, tier, k, cost, eager)
            if isinstance(seeded, list):
                return seeded

            def exact(docs: np.ndarray) -> np.ndarray:
                return self._exact_scores(scoring, tier, docs)

            if seeded is not None:
                # The seed's top k is known exactly: only documents of none of its terms remain, and for them the
                # other terms' bounds alone decide (no union with the seed's documents, no second look at them),
                # and only in the blocks where the other terms' block bounds together reach the k-th best.
                blocks = self._in_live_blocks(scoring, tier, seeded)
                if blocks is None:
                    return self._ordered(seeded.best, seeded.values, k, ascending=True)
                rest, live = blocks
                outside = reaching_docs(
                    self._pruning_terms(rest, tier, leave_out=seeded.term_ids),
                    threshold=seeded.threshold,
                    doc_count=tier.extent,
                    max_postings=None if eager else cost / KEPT_COST,
                )
                if outside is not None:
                    found, _ = lookup_postings(seeded.docs, outside)
                    if found.size:
                        outside = np.delete(outside, found)  # the seed's documents are scored already
                    if live is not None:
                        outside = outside[live.take(outside >> BLOCK_SHIFT)]
                    values = exact(outside)
                    scored = values != 0
                    return self._top(
                        np.concatenate((seeded.best, outside[scored])),
                        np.concatenate((seeded.values, values[scored])),
                        k,
                    )

            candidates = candidate_docs(
                self._pruning_terms(scoring, tier),
                k=k,
                exact_scores=exact,
                doc_count=tier.extent,
                exhaustive_cost=cost,
                excluded=self._removed_mask,
                threshold=None if seeded is None else seeded.threshold,
                **({"seed_postings": 0, "lookup_cost": 0} if eager else {}),
            )
            if candidates is not None:
                values = exact(candidates)
                scored = values != 0
                return self._top(candidates[scored], values[scored], k)
        if postings * _SPARSE_SHARE < tier.extent:
            # few postings: score their documents alone, not a score array of every document
            docs = _union([term.docs for term in scoring])
            values = self._exact_scores(scoring, tier, docs, within={term.term_id for term in scoring})
            scored = values != 0
            return self._top(docs[scored], values[scored], k)
        scores = self._accumulate(query_tokens, max_rank, tier)
        if scores is None:
            return []
        candidates = _candidates(scores, k)
        return self._top(candidates, scores[candidates], k)

    def _seeded_top(
        self, scoring: list["_Scoring"], tier: _Tier, k: int, cost: float, eager: bool
    ) -> "list[Hit] | _Seed | None":
        """The exact top k if the rarest terms' documents (the seed) hold it, else the seed with a lower bound of
        the k-th best score (None when there is none to give, or scoring the seed cannot pay).

        The seed's documents are scored exactly; any other document holds none of the seed terms, so it scores at
        most the sum of the other terms' bounds, and when that sum is below the seed's k-th best (by a margin far
        above rounding) the top k is the seed's. The common case of a query of a few rare terms and common ones:
        one lookup per term for a few thousand documents, and none of `maxscore.candidate_docs`' narrowing.
        """
        repeats: dict[int, int] = {}
        distinct: dict[int, _Scoring] = {}
        for term in scoring:
            repeats[term.term_id] = repeats.get(term.term_id, 0) + 1
            distinct[term.term_id] = term
        by_size = sorted(distinct.values(), key=_posting_count)
        seeds = seed_count([term.docs.size for term in by_size], k, 0 if eager else SEED_POSTINGS)
        if seeds == len(by_size):
            return None  # every term is short: the exhaustive path is as cheap
        seed = by_size[:seeds]
        if not eager and sum(term.docs.size for term in seed) * KEPT_COST > cost:
            return None  # the seed alone costs about what scoring every posting does
        if seeds == 1:
            docs = seed[0].docs
        elif kernel.AVAILABLE:
            docs = kernel.union(
                self.post_docs,
                np.array([term.start for term in seed], dtype=np.int64),
                np.array([term.docs.size for term in seed], dtype=np.int64),
            )
        else:
            docs = _union([term.docs for term in seed])
        values = self._exact_scores(scoring, tier, docs, within={term.term_id for term in seed})
        chosen = kernel.top(values, docs, self.chunk_order, k) if kernel.AVAILABLE else None
        # the kernel's k best non-zero values, ties by chunk id: the k-th of them is _kth's (0.0 if fewer than k)
        if chosen is None:
            kth, best = at_least_kth(values, k)  # kth > 0 below: scoring documents only, every one tied at it
        else:
            kth = float(values[chosen[k - 1]]) if chosen.size == k else 0.0
            best = np.flatnonzero(values >= kth)
        threshold = _safe(kth)
        if threshold <= 0:
            return None
        if sum(repeats[term.term_id] * term.bound for term in by_size[seeds:]) >= threshold:
            # a document outside the seed might reach the top k: narrow from this bound
            return _Seed(threshold, docs, docs.take(best), values.take(best), frozenset(term.term_id for term in seed))
        if chosen is not None:  # what _ordered gives: the same k of the same documents in the same order
            return _hits([self.chunk_ids[i] for i in docs.take(chosen).tolist()], values.take(chosen).tolist())
        return self._ordered(docs.take(best), values.take(best), k, ascending=True)

    def _in_live_blocks(
        self, scoring: list[_Scoring], tier: _Tier, seeded: _Seed
    ) -> tuple[list[_Scoring], np.ndarray | None] | None:
        """The query's terms, those outside the seed with bounds over the live blocks alone (where the sum of their
        block bounds reaches the seed's threshold), and which blocks are live (None: all); None if no block is
        live, so no document outside the seed can reach the top k.

        A document outside the seed holds none of its terms: its score is at most its block's sum, so one in a
        block that is not live cannot reach the threshold, and in a live block each term adds at most its largest
        bound over the live blocks (a term with none there adds nothing and is left out).
        """
        others = {term.term_id: term for term in scoring if term.term_id not in seeded.term_ids}
        if not others or tier.tf_part.size == 0 or tier.tf_part[0] != 0.0:
            return scoring, None  # the absent code must add 0.0 (k1 * (1 - b) = 0 makes it 0 / 0)
        repeats: dict[int, int] = {}
        for term in scoring:
            repeats[term.term_id] = repeats.get(term.term_id, 0) + 1
        tables = {term.term_id: term.blocks for term in others.values() if term.blocks is not None}
        if not tables:
            return scoring, None
        blocked = [others[term_id] for term_id in tables]
        unblocked = sum(repeats[term.term_id] * term.bound for term in others.values() if term.blocks is None)
        parts = {term_id: tier.tf_part.take(table) for term_id, table in tables.items()}
        sums = np.full(next(iter(tables.values())).size, float(unblocked))
        for term in blocked:
            sums += (repeats[term.term_id] * term.idf) * parts[term.term_id]
        live = sums * (1 + _BOUND_MARGIN) >= seeded.threshold  # raised as maxscore's sums: far above rounding
        if not live.any():
            return None
        bounds = {term.term_id: float(term.idf * parts[term.term_id][live].max()) for term in blocked}
        tightened = [replace(term, bound=bounds[term.term_id]) if term.term_id in bounds else term for term in scoring]
        return [term for term in tightened if term.bound > 0 or term.term_id not in bounds], live

    def _top(self, candidates: np.ndarray, values: np.ndarray, k: int) -> list[Hit]:
        if candidates.size > k:
            _, keep = at_least_kth(values, k)  # every document tied at the boundary stays: the chunk id decides
            candidates, values = candidates.take(keep), values.take(keep)
        return self._ordered(candidates, values, k)

    def _ordered(self, candidates: np.ndarray, values: np.ndarray, k: int, ascending: bool = False) -> list[Hit]:
        """The k best of these candidates, best first, ties by chunk id. ascending: the candidates' document
        numbers ascend (a seed's best ones do)."""
        if ascending and candidates.size <= _FEW_ORDERED:
            docs, scores = candidates.tolist(), values.tolist()
            starts = self._rank_starts
            if docs and bisect.bisect_right(starts, docs[0]) == bisect.bisect_right(starts, docs[-1]):
                # One rank: document numbers ascend with chunk ids there, and a sort is stable even in reverse,
                # so ties keep chunk-id order; a few Python floats sort faster than numpy's lexsort starts.
                best = sorted(range(len(docs)), key=scores.__getitem__, reverse=True)[:k]
                return _hits([self.chunk_ids[docs[j]] for j in best], [scores[j] for j in best])
        order = np.lexsort((self.chunk_order.take(candidates), -values))[:k]  # take: less set-up than []
        chosen = candidates.take(order).tolist()
        return _hits([self.chunk_ids[i] for i in chosen], values.take(order).tolist())

    def _scoring_terms(self, query_tokens: list[str], max_rank: int, tier: _Tier) -> list[_Scoring]:
        """The query's tokens that score in this tier, in query order (a repeated term once per repeat)."""
        known = tier.scoring
        scoring = []
        for token in query_tokens:
            if token in known:
                term = known[token]
            else:
                if len(known) >= _KNOWN_TOKENS:
                    known.clear()  # bounded: queries may bring any number of unknown words
                term = known[token] = self._scoring_term(token, max_rank, tier)
            if term is not None:
                scoring.append(term)
        return scoring

    def _scoring_term(self, token: str, max_rank: int, tier: _Tier) -> _Scoring | None:
        """The token's term in this tier, or None if it scores nothing there (absent, or an idf of 0.0)."""
        term_id = self.term_ids.get(token)
        if term_id is None:
            return None
        idf = tier.idf[term_id]
        start = int(self.offsets[term_id * TIERS])
        end = int(self.offsets[term_id * TIERS + max_rank + 1])
        if start == end or idf == 0.0:
            return None
        docs, codes = self.post_docs[start:end], self.post_codes[start:end]
        column, scaled = self._columns.get(term_id), None
        if column is not None:  # columns exist only with the dense pair table: code = tf * stride + length
            stride = int(self.pair_length[-1]) + 1
            size = (int(self.term_max_tf[term_id]) + 1) * stride
            table = tier.scaled.get(float(idf))
            if table is None or table.size < size:  # the longest prefix asked so far: one table per idf
                table = tier.scaled[float(idf)] = idf * tier.tf_part[:size]
            scaled = table[:size]
        return _Scoring(
            term_id, idf, float(tier.bound[term_id]), docs, codes, column, self._blocks.get(term_id), scaled,
            start, self._column_rows.get(term_id, -1),
        )

    def _prunable(self, scoring: list["_Scoring"], postings: int, prune_from: int) -> bool:
        """Whether the query reads enough postings for pruning to pay, and its bounds are sound."""
        if self.k1 < 0 or self.b < 0 or postings < prune_from:
            return False  # the bounds assume a tf part rising with tf and falling with length
        first = scoring[0].term_id
        distinct = False
        for term in scoring:
            if term.idf < 0:
                return False  # a negative contribution: the bounds' argument needs terms that only add
            distinct = distinct or term.term_id != first
        return distinct

    def _pruning_terms(
        self, scoring: list["_Scoring"], tier: _Tier, leave_out: frozenset[int] = frozenset()
    ) -> list[QueryTerm]:
        """The query's distinct terms (but those left out) with their bounds, for `maxscore`'s pruning."""
        repeats: dict[int, int] = {}
        for term in scoring:
            repeats[term.term_id] = repeats.get(term.term_id, 0) + 1
        distinct = {term.term_id: term for term in scoring if term.term_id not in leave_out}

        def weights(term: _Scoring) -> Callable[[], np.ndarray]:
            found: list[np.ndarray] = []

            def all_of() -> np.ndarray:  # for bounds only: the float operations need not be the exact path's
                if not found:
                    codes = term.codes
                    factor = repeats[term.term_id] * term.idf
                    small_table = tier.tf_part.size <= codes.size
                    scaled = (factor * tier.tf_part).take(codes) if small_table else factor * tier.tf_part.take(codes)
                    found.append(scaled)
                return found[0]

            return all_of

        def weights_of(term: _Scoring) -> Callable[[np.ndarray], np.ndarray]:
            def of(docs: np.ndarray) -> np.ndarray:
                if term.column is not None:
                    looked_up: np.ndarray = term.idf * tier.tf_part.take(term.column.take(docs))
                    return repeats[term.term_id] * looked_up
                values = np.zeros(docs.size, dtype=np.float64)
                found, at = lookup_postings(term.docs, docs)
                values[found] = term.idf * tier.tf_part.take(term.codes.take(at))
                return repeats[term.term_id] * values

            return of

        return [
            QueryTerm(
                docs=term.docs,
                bound=repeats[term_id] * term.bound,
                dense=term.column is not None,
                weights=weights(term),
                weights_of=weights_of(term),
            )
            for term_id, term in distinct.items()
        ]

    def _exact_scores(
        self, scoring: list["_Scoring"], tier: _Tier, docs: np.ndarray, within: set[int] | frozenset[int] = frozenset()
    ) -> np.ndarray:
        """The documents' scores, term by term in query order: the exhaustive path's float operations (removed
        documents 0.0). within names terms whose postings all are among docs (placed without any search).

        With numba, `kernel.exact_scores` adds them in one compiled pass per term. Without it, a run of query terms
        without a per-document column is added in one unbuffered `np.add.at` over their postings concatenated in
        query order, so each document still receives its terms' products in query order.
        """
        if kernel.AVAILABLE:
            values = kernel.exact_scores(
                docs,
                self.post_docs,
                self.post_codes,
                np.array([term.start for term in scoring], dtype=np.int64),
                np.array([term.docs.size for term in scoring], dtype=np.int64),
                np.array([term.idf for term in scoring], dtype=np.float64),
                np.array([term.row for term in scoring], dtype=np.int64),
                self._column_table,
                tier.tf_part,
            )
            if self._removed_mask is not None:
                values[self._removed_mask[docs]] = 0.0
            return values
        values = np.zeros(docs.size, dtype=np.float64)
        # take casts its indexes to intp: once, not once per column, and the scratch map's places share the copy
        columns = any(term.scaled is not None for term in scoring)
        indexes = docs.astype(np.intp, copy=False) if columns else docs
        places = Places(docs, tier.extent, indexes if columns else None)
        run: list[_Scoring] = []
        looked_up: dict[int, np.ndarray] = {}  # a repeated column term's products, gathered once
        for term in scoring:
            if term.column is None or term.scaled is None:  # a column always comes with its scaled table
                run.append(term)
                continue
            if run:
                self._add_run(values, run, tier, docs, places, within)
                run = []
            products = looked_up.get(term.term_id)
            if products is None:
                # take, not [], throughout: the same elements, with less of numpy's per-call indexing setup
                products = looked_up[term.term_id] = term.scaled.take(term.column.take(indexes))
            values += products  # absent ones add idf * 0.0: x + 0.0 is x; a repeat adds the same products again
        if run:
            self._add_run(values, run, tier, docs, places, within)
        if self._removed_mask is not None:
            values[self._removed_mask[docs]] = 0.0
        return values

    @staticmethod
    def _add_run(
        values: np.ndarray, run: list["_Scoring"], tier: _Tier, docs: np.ndarray, places: Places, within: Set[int]
    ) -> None:
        """Add consecutive query terms' products (none with a column) to values, in query order."""
        if len(run) == 1 and run[0].docs is docs:  # the seed's one term: every document holds it, in order
            values += run[0].idf * tier.tf_part.take(run[0].codes)
            return
        if all(term.term_id in within for term in run):  # the seed's terms: one gather places them all
            at = places.of_all(run[0].docs if len(run) == 1 else np.concatenate([term.docs for term in run]))
            codes = [term.codes for term in run]
        else:
            positions, codes = [], []
            for term in run:
                if term.term_id in within:
                    positions.append(places.of_all(term.docs))
                    codes.append(term.codes)
                else:
                    found, in_postings = places.lookup(term.docs)
                    positions.append(found)
                    codes.append(term.codes.take(in_postings))
            at = positions[0] if len(run) == 1 else np.concatenate(positions)
        at = at.astype(np.intp, copy=False)  # numpy's fancy writes and add.at are several times faster with intp
        if len(run) == 1:
            values[at] += run[0].idf * tier.tf_part.take(codes[0])  # a term's positions are distinct
            return
        sizes = [part.size for part in codes]
        idf = np.repeat(np.array([term.idf for term in run]), sizes)
        np.add.at(values, at, idf * tier.tf_part.take(np.concatenate(codes)))  # in order, repeated places too

    def has_term(self, term: str, *, max_rank: int) -> bool:
        """Whether the term occurs in any of the tier's documents."""
        return self.document_frequency(term, max_rank=max_rank) > 0

    def document_frequency(self, term: str, *, max_rank: int) -> int:
        """How many of the tier's documents hold the term (the whole index's df, in either segment)."""
        for segment, tier in self._segments(max_rank):
            term_id = segment.term_ids.get(term)
            if term_id is not None:
                return int(tier.df[term_id])
        return 0

    def doc_count(self, *, max_rank: int) -> int:
        """How many documents the tier sees."""
        return self._tiers[_checked_rank(max_rank)].doc_count

    def __len__(self) -> int:
        return len(self.chunk_ids) - self.removed.size + len(self.delta_rows)

    def position(self, chunk_id: str) -> int | None:
        """The main segment's document number of this chunk (removed or not), or None if main never held it."""
        for rank in range(TIERS):
            low, high = self._rank_starts[rank], self._rank_starts[rank + 1]
            at = bisect.bisect_left(self.chunk_ids, chunk_id, low, high)
            if at < high and self.chunk_ids[at] == chunk_id:
                return at
        return None

    def main_arrays(self) -> dict[str, object]:
        """The main segment's constructor arguments: what an update keeps and a merge edits."""
        return {
            "chunk_ids": self.chunk_ids, "ranks": self.ranks, "lengths": self.lengths,
            "chunk_order": self.chunk_order, "terms": self.terms, "offsets": self.offsets,
            "post_docs": self.post_docs, "post_codes": self.post_codes, "pair_tf": self.pair_tf,
            "pair_length": self.pair_length, "term_max_tf": self.term_max_tf,
            "term_min_length": self.term_min_length, "k1": self.k1, "b": self.b, "epsilon": self.epsilon,
        }

    @property
    def term_count(self) -> int:
        """How many distinct terms the whole index holds (main's, removed documents' included, and the delta's)."""
        return self._tiers[0].df.size if self._delta is None else max(len(self.terms), int(self._delta_terms.max()) + 1)

    def memory_bytes(self) -> int:
        """Approximate memory the index holds: its arrays, strings, lists and the term dictionary."""
        arrays = [self.ranks, self.lengths, self.chunk_order, self.offsets, self.post_docs, self.post_codes]
        arrays += [self.pair_tf, self.pair_length, self.term_max_tf, self.term_min_length, self.removed]
        arrays += [array for tier in self._tiers for array in (tier.df, tier.idf, tier.tf_part, tier.bound)]
        arrays += list(self._columns.values()) + list(self._blocks.values())
        cached = [term for tier in self._tiers for term in tier.scoring.values() if term is not None]
        # the tables queries made so far, each once: terms hold views of their tier's tables (or of older, shorter
        # ones a longer table replaced)
        tables = [term.scaled.base for term in cached if term.scaled is not None and term.scaled.base is not None]
        tables += [table for tier in self._tiers for table in tier.scaled.values()]
        arrays += list({id(table): table for table in tables}.values())
        if self._removed_mask is not None:
            arrays.append(self._removed_mask)
        strings = sum(len(s) + 49 for s in self.chunk_ids) + sum(len(s) + 49 for s in self.terms)
        containers = 8 * (len(self.chunk_ids) + len(self.terms)) + 100 * len(self.terms)  # lists, dict slots
        delta = 0
        if self._delta is not None:
            delta = self._delta.memory_bytes() + sum(len(tokens) * 8 + 120 for _, _, tokens in self.delta_rows)
        return sum(array.nbytes for array in arrays) + strings + containers + delta

    def _check_shape(self) -> None:
        n_docs, n_terms = len(self.chunk_ids), len(self.terms)
        if (
            self.ranks.shape != (n_docs,)
            or self.lengths.shape != (n_docs,)
            or self.chunk_order.shape != (n_docs,)
            or self.offsets.shape != (n_terms * TIERS + 1,)
            or self.post_docs.shape != self.post_codes.shape
            or self.pair_tf.shape != self.pair_length.shape
            or self.term_max_tf.shape != (n_terms,)
            or self.term_min_length.shape != (n_terms,)
            or int(self.offsets[-1]) != self.post_docs.size
            or (self.post_docs.size and int(self.post_docs.max()) >= n_docs)
            or (self.post_codes.size and int(self.post_codes.max()) >= self.pair_tf.size)
            or (n_docs and bool(np.any(np.diff(self.ranks) < 0)))
        ):
            raise ValueError("index arrays are inconsistent")


_MAIN_FIELDS = (
    "k1", "b", "epsilon", "chunk_ids", "ranks", "lengths", "chunk_order", "terms", "term_ids", "offsets",
    "post_docs", "post_codes", "pair_tf", "pair_length", "term_max_tf", "term_min_length", "_rank_starts", "_columns",
    "_column_table", "_column_rows", "_blocks",
)


def _hits(chunk_ids: list[str], scores: list[float]) -> list[Hit]:
    """Hit(chunk_id, score) for each pair, made without the frozen dataclass's __init__.

    Its two object.__setattr__ calls cost about 0.6 us a hit, several per cent of a query at 100k chunks; the
    instance dictionary filled directly holds the same fields (equality, hash and repr are the dataclass's).
    """
    hits = []
    for chunk_id, score in zip(chunk_ids, scores, strict=True):
        hit = _new_hit(Hit)
        fields = hit.__dict__
        fields["chunk_id"], fields["score"] = chunk_id, score
        hits.append(hit)
    return hits


_new_hit = object.__new__


def _first_at_least(values: np.ndarray, starts: np.ndarray, ends: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """For each target and each ascending run values[starts[i]:ends[i]]: the first position holding at least the
    target (ends[i] if none); a (targets, runs) array, by one binary search over every run at once."""
    low = np.broadcast_to(starts, (targets.size, starts.size)).astype(np.int64)
    high = np.broadcast_to(ends, (targets.size, starts.size)).astype(np.int64)
    wanted = targets.astype(values.dtype)[:, None]
    active = np.flatnonzero(low < high)
    low_flat, high_flat = low.reshape(-1), high.reshape(-1)
    wanted_flat = np.broadcast_to(wanted, low.shape).reshape(-1)
    while active.size:
        lo, hi = low_flat[active], high_flat[active]
        middle = (lo + hi) >> 1
        below = values[middle] < wanted_flat[active]
        low_flat[active] = np.where(below, middle + 1, lo)
        high_flat[active] = np.where(below, hi, middle)
        active = active[low_flat[active] < high_flat[active]]
    return low_flat.reshape(low.shape)


def _posting_count(term: _Scoring) -> int:
    """The term's postings in the tier: the seed's sort key (a function, not a lambda made every query)."""
    return term.docs.size


def _checked_rank(max_rank: int) -> int:
    if not 0 <= max_rank < TIERS:
        raise ValueError(f"max_rank must be 0..{TIERS - 1}, not {max_rank!r}")
    return max_rank


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
