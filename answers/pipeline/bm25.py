"""BM25 Okapi over an inverted index, scoring exactly as rank-bm25's `BM25Okapi`, with statistics per tier (§3, §5.1).

A tier is a maximum audience rank (0 public, 1 partner, 2 internal). The documents a tier sees are those whose
rank is at most the tier's, and N, the average length, document frequencies and idf are computed over exactly
those documents, so a caller's scores are the same whether or not documents above its tier exist.

Postings are stored term by term, each term's postings ordered by (audience rank, document), so the postings a
tier sees are a prefix of the term's run: a query reads only the postings of its own terms.

Documents are kept in chunk-id order, so document index order is chunk-id order and ties break by chunk id.
Only non-zero scores are hits. Scores can be negative: as in rank-bm25, a term found in more than half of the
documents gets the floor idf epsilon * average idf, which is negative when the average idf is (tiny corpora).
"""
import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from answers.pipeline.records import AUDIENCE_RANK

TIERS = 3  # public, partner, internal: AUDIENCE_RANK's values
_FORMAT = 1


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk and its BM25 score."""

    chunk_id: str
    score: float


@dataclass(frozen=True)
class _Tier:
    doc_count: int
    norm: np.ndarray  # per document: k1 * (1 - b + b * len / avgdl), meaningful for the tier's documents
    idf: np.ndarray  # per term; 0.0 for terms outside the tier's vocabulary


class Bm25Index:
    """An immutable BM25 Okapi index; build it with `Bm25Index.build` or `Bm25Index.load`."""

    def __init__(
        self,
        *,
        chunk_ids: list[str],
        ranks: np.ndarray,
        lengths: np.ndarray,
        terms: list[str],
        offsets: np.ndarray,
        post_docs: np.ndarray,
        post_tfs: np.ndarray,
        k1: float,
        b: float,
        epsilon: float,
    ) -> None:
        self.k1, self.b, self.epsilon = float(k1), float(b), float(epsilon)
        self._chunk_ids = chunk_ids
        self._ranks = ranks
        self._lengths = lengths
        self._terms = terms
        self._term_ids = {term: i for i, term in enumerate(terms)}
        self._offsets = offsets  # postings of (term t, rank r) are post_docs[offsets[3t + r]:offsets[3t + r + 1]]
        self._post_docs = post_docs
        self._post_tfs = post_tfs
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
        """Index (chunk_id, audience or audience rank, tokens) triples; chunk ids must be unique."""
        rows = sorted(docs, key=lambda doc: doc[0])
        chunk_ids = [chunk_id for chunk_id, _, _ in rows]
        if len(set(chunk_ids)) != len(chunk_ids):
            raise ValueError("chunk ids must be unique")
        ranks = np.fromiter(
            (audience if isinstance(audience, int) else AUDIENCE_RANK[audience] for _, audience, _ in rows),
            dtype=np.int8,
            count=len(rows),
        )
        if ranks.size and (ranks.min() < 0 or ranks.max() >= TIERS):
            raise ValueError("audience rank out of range")
        lengths = np.fromiter((len(tokens) for _, _, tokens in rows), dtype=np.int64, count=len(rows))
        stream: list[str] = []
        for _, _, tokens in rows:
            stream.extend(tokens)
        # Term ids in order of first appearance: the order rank-bm25 sums idfs in.
        vocabulary = dict.fromkeys(stream)
        for term_id, term in enumerate(vocabulary):
            vocabulary[term] = term_id
        terms = list(vocabulary)
        term_of_token = np.fromiter(map(vocabulary.__getitem__, stream), dtype=np.int64, count=len(stream))
        del stream
        n_docs = max(len(rows), 1)
        doc_of_token = np.repeat(np.arange(len(rows), dtype=np.int64), lengths)
        keys = (term_of_token * TIERS + ranks[doc_of_token].astype(np.int64)) * n_docs + doc_of_token
        del term_of_token, doc_of_token
        keys, tfs = np.unique(keys, return_counts=True)
        groups = keys // n_docs  # term * TIERS + rank
        offsets = np.zeros(len(terms) * TIERS + 1, dtype=np.int64)
        np.cumsum(np.bincount(groups, minlength=len(terms) * TIERS), out=offsets[1:])
        return cls(
            chunk_ids=chunk_ids,
            ranks=ranks,
            lengths=lengths,
            terms=terms,
            offsets=offsets,
            post_docs=(keys % n_docs).astype(np.int32),
            post_tfs=tfs.astype(np.int32),
            k1=k1,
            b=b,
            epsilon=epsilon,
        )

    def _tier_stats(self, max_rank: int) -> _Tier:
        visible = self._ranks <= max_rank
        doc_count = int(visible.sum())
        n_terms = len(self._terms)
        idf = np.zeros(n_terms, dtype=np.float64)
        norm = np.zeros(len(self._chunk_ids), dtype=np.float64)
        if doc_count == 0:
            return _Tier(0, norm, idf)
        avgdl = int(self._lengths[visible].sum()) / doc_count
        if avgdl > 0:
            norm = self.k1 * (1 - self.b + self.b * self._lengths / avgdl)
        starts = self._offsets[0 : n_terms * TIERS : TIERS]
        dfs = self._offsets[max_rank + 1 :: TIERS] - starts
        # Same arithmetic and summation order as rank-bm25's _calc_idf, term by term.
        idf_sum = 0.0
        log = math.log
        values = []
        for df in dfs.tolist():
            if df:
                value = log(doc_count - df + 0.5) - log(df + 0.5)
                idf_sum += value
            else:
                value = 0.0
            values.append(value)
        idf = np.array(values, dtype=np.float64) if values else idf
        present = dfs > 0
        if present.any():
            floor = self.epsilon * (idf_sum / int(present.sum()))
            idf[present & (idf < 0)] = floor
        return _Tier(doc_count, norm, idf)

    def _accumulate(self, query_tokens: list[str], max_rank: int) -> np.ndarray | None:
        tier = self._tiers[_checked_rank(max_rank)]
        scores = None
        k1_plus_1 = self.k1 + 1
        for token in query_tokens:  # a repeated term counts each time, as in rank-bm25
            term_id = self._term_ids.get(token)
            if term_id is None:
                continue
            idf = tier.idf[term_id]
            start, end = self._offsets[term_id * TIERS], self._offsets[term_id * TIERS + max_rank + 1]
            if start == end or idf == 0.0:
                continue
            docs = self._post_docs[start:end]
            tfs = self._post_tfs[start:end].astype(np.float64)
            contribution = idf * (tfs * k1_plus_1 / (tfs + tier.norm[docs]))
            if scores is None:
                scores = np.zeros(len(self._chunk_ids), dtype=np.float64)
            scores[docs] += contribution
        return scores

    def scores(self, query_tokens: list[str], *, max_rank: int) -> dict[str, float]:
        """Every non-zero score of the tier's documents, by chunk id."""
        scores = self._accumulate(query_tokens, max_rank)
        if scores is None:
            return {}
        return {self._chunk_ids[i]: float(scores[i]) for i in np.flatnonzero(scores).tolist()}

    def search(self, query_tokens: list[str], *, max_rank: int, k: int) -> list[Hit]:
        """The k best documents of the tier by score, ties by chunk id; zero scores are never returned."""
        if k <= 0:
            return []
        scores = self._accumulate(query_tokens, max_rank)
        if scores is None:
            return []
        candidates = np.flatnonzero(scores)
        values = scores[candidates]
        if candidates.size > k:
            kth = np.partition(values, candidates.size - k)[candidates.size - k]
            keep = values >= kth  # every document tied at the boundary stays, so the tie-break below decides
            candidates, values = candidates[keep], values[keep]
        order = np.lexsort((candidates, -values))[:k]
        return [Hit(self._chunk_ids[i], float(values[j])) for j, i in zip(order.tolist(), candidates[order].tolist())]

    def has_term(self, term: str, *, max_rank: int) -> bool:
        """Whether the term occurs in any document of the tier."""
        term_id = self._term_ids.get(term)
        if term_id is None:
            return False
        return bool(self._offsets[term_id * TIERS + _checked_rank(max_rank) + 1] > self._offsets[term_id * TIERS])

    def doc_count(self, *, max_rank: int) -> int:
        """How many documents the tier sees."""
        return self._tiers[_checked_rank(max_rank)].doc_count

    def __len__(self) -> int:
        return len(self._chunk_ids)

    @property
    def term_count(self) -> int:
        """How many distinct terms the whole index holds."""
        return len(self._terms)

    def memory_bytes(self) -> int:
        """Approximate memory held by the index: arrays plus the id and term strings."""
        arrays = [self._ranks, self._lengths, self._offsets, self._post_docs, self._post_tfs]
        arrays += [array for tier in self._tiers for array in (tier.norm, tier.idf)]
        strings = sum(len(s) + 49 for s in self._chunk_ids) + sum(len(s) + 49 for s in self._terms)
        # ids list, terms list and the term -> id dict (about 100 bytes an entry)
        containers = 8 * (len(self._chunk_ids) + len(self._terms)) + 100 * len(self._terms)
        return sum(array.nbytes for array in arrays) + strings + containers

    def save(self, path: str | os.PathLike) -> None:
        """Write the index to one .npz file, atomically (a temporary file, then a rename)."""
        path = Path(path)
        meta = {
            "format": _FORMAT,
            "k1": self.k1,
            "b": self.b,
            "epsilon": self.epsilon,
            "chunk_ids": self._chunk_ids,
            "terms": self._terms,
        }
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(self)}.tmp")
        try:
            with open(temporary, "wb") as handle:
                np.savez(
                    handle,
                    meta=np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
                    ranks=self._ranks,
                    lengths=self._lengths,
                    offsets=self._offsets,
                    post_docs=self._post_docs,
                    post_tfs=self._post_tfs,
                )
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Bm25Index":
        """Read an index written by `save`; raises ValueError (or OSError) if the file is not a whole index."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(data["meta"].tobytes().decode("utf-8"))
            if meta.get("format") != _FORMAT:
                raise ValueError(f"unsupported index format {meta.get('format')!r}")
            index = cls(
                chunk_ids=meta["chunk_ids"],
                ranks=data["ranks"],
                lengths=data["lengths"],
                terms=meta["terms"],
                offsets=data["offsets"],
                post_docs=data["post_docs"],
                post_tfs=data["post_tfs"],
                k1=meta["k1"],
                b=meta["b"],
                epsilon=meta["epsilon"],
            )
        index._check_shape()
        return index

    def _check_shape(self) -> None:
        n_docs, n_terms = len(self._chunk_ids), len(self._terms)
        if (
            self._ranks.shape != (n_docs,)
            or self._lengths.shape != (n_docs,)
            or self._offsets.shape != (n_terms * TIERS + 1,)
            or self._post_docs.shape != self._post_tfs.shape
            or int(self._offsets[-1]) != self._post_docs.size
            or (self._post_docs.size and int(self._post_docs.max()) >= n_docs)
        ):
            raise ValueError("index file is inconsistent")


def _checked_rank(max_rank: int) -> int:
    if not 0 <= max_rank < TIERS:
        raise ValueError(f"max_rank must be 0..{TIERS - 1}, not {max_rank!r}")
    return max_rank
