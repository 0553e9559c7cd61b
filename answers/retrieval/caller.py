"""The caller's view of the index: one snapshot through one caller's audiences (§3), re-read for each question.

With RAG_RETRIEVAL=hybrid and chunk vectors in the snapshot, a retriever bound to its question (`for_question`)
fuses BM25 with dense retrieval over the same tier's chunks (`answers.pipeline.retrieve.hybrid`); unbound, or
without vectors, it is BM25 alone.
"""
import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np
from django.contrib.auth import get_user_model

from answers.pipeline.embed.similarity import question_vector
from answers.pipeline.records import AUDIENCE_RANK
from answers.pipeline.retrieve.hybrid import FusionConfig, fuse_rankings
from answers.pipeline.types import Retrieved
from answers.retrieval.holder import IndexSnapshot
from corpus_admin.visibility import audiences_for


@dataclass(frozen=True)
class CallerRetriever:
    """One index snapshot seen through one caller's audiences; a question keeps it for its whole run."""

    snapshot: IndexSnapshot
    max_rank: int
    hybrid: bool = False  # RAG_RETRIEVAL=hybrid
    query_vector: np.ndarray | None = None  # the question's, once bound to it
    fusion: FusionConfig = FusionConfig()
    served: bool = False  # the snapshot was the corpus as served when the question read its version

    def visible_ids(self, chunk_ids: Sequence[str], *, audiences: Sequence[str],
                    read: Callable[..., Collection[str]]) -> set[str]:
        """The ids among these of the chunks the audiences may see now: from the snapshot's records when it is the
        served corpus (a served chunk's audience changes only with the corpus version), the ids it does not hold
        (past versions, unknown ids) and every id of an older snapshot by `read` (the database's answer)."""
        if not self.served:
            return set(read(chunk_ids, audiences=audiences))
        records, tiers = self.snapshot.records, set(audiences)
        seen = {cid for cid in chunk_ids if cid in records and records[cid].audience in tiers}
        elsewhere = [cid for cid in chunk_ids if cid not in records]
        return seen | set(read(elsewhere, audiences=audiences)) if elsewhere else seen

    def for_question(self, question: str) -> "CallerRetriever":
        """This retriever with the question's vector when hybrid retrieval can run, else itself (BM25 alone)."""
        dense = self.snapshot.dense
        if not self.hybrid or dense is None or dense.tier_ends[self.max_rank] == 0:
            return self
        vector = question_vector(question)
        return self if vector is None else dataclasses.replace(self, query_vector=vector)

    def search(self, terms: Sequence[str], *, k: int) -> list[Retrieved]:
        """Top k of the caller's chunks: BM25's, or BM25 and dense fused when bound to a question."""
        dense = self.snapshot.dense
        if self.query_vector is None or dense is None:
            hits = self.snapshot.bm25.search(list(terms), max_rank=self.max_rank, k=k)
        else:
            depth = max(k, self.fusion.depth)
            lexical = self.snapshot.bm25.search(list(terms), max_rank=self.max_rank, k=depth)
            semantic = dense.search(self.query_vector, max_rank=self.max_rank, k=depth)
            hits = fuse_rankings(lexical, semantic, k=k, config=self.fusion)
        return [Retrieved(self.snapshot.records[hit.chunk_id], hit.score) for hit in hits]

    def has_term(self, term: str) -> bool:
        """Whether the caller's chunks contain the term."""
        return self.snapshot.bm25.has_term(term, max_rank=self.max_rank)

    def document_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many of the caller's chunks hold each term, and how many chunks the caller sees."""
        bm25 = self.snapshot.bm25
        found = {term: bm25.document_frequency(term, max_rank=self.max_rank) for term in terms}
        return found, bm25.doc_count(max_rank=self.max_rank)


def bound_to_question(retriever, question: str):
    """The retriever a question searches with: bound to its text when it can use it (hybrid), else as it is."""
    return retriever.for_question(question) if isinstance(retriever, CallerRetriever) else retriever


def caller_audiences(user) -> tuple[str, ...]:
    """The caller's audiences, re-read from the database for this question."""
    if user is None or not getattr(user, "is_authenticated", False):
        return audiences_for(None)
    fresh = get_user_model().objects.filter(pk=user.pk).first()
    return audiences_for(fresh)


def max_rank_for(audiences: tuple[str, ...]) -> int:
    """The statistics tier of a caller's audiences; they must be nested (public, then partner, then internal)."""
    if not audiences:
        raise ValueError("a caller sees at least the public audience")
    max_rank = max(AUDIENCE_RANK[audience] for audience in audiences)
    if {AUDIENCE_RANK[audience] for audience in audiences} != set(range(max_rank + 1)):
        raise ValueError(f"audiences {audiences!r} are not a tier (public, public+partner, or all three)")
    return max_rank
