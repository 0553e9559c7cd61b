"""The caller's view of the index: one snapshot through one caller's audiences (§3), re-read for each question."""
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from answers.pipeline.records import AUDIENCE_RANK
from answers.pipeline.types import Retrieved
from answers.retrieval.holder import IndexSnapshot
from corpus_admin.visibility import audiences_for


@dataclass(frozen=True)
class CallerRetriever:
    """One index snapshot seen through one caller's audiences; a question keeps it for its whole run."""

    snapshot: IndexSnapshot
    max_rank: int

    def search(self, terms: Sequence[str], *, k: int) -> list[Retrieved]:
        """Top k of the caller's chunks."""
        hits = self.snapshot.bm25.search(list(terms), max_rank=self.max_rank, k=k)
        return [Retrieved(self.snapshot.records[hit.chunk_id], hit.score) for hit in hits]

    def has_term(self, term: str) -> bool:
        """Whether the caller's chunks contain the term."""
        return self.snapshot.bm25.has_term(term, max_rank=self.max_rank)


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
