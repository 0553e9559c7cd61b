"""Retriever backends: where a question's retriever comes from, chosen by `RAG_RETRIEVER` (default `memory`).

The pipeline asks only for `answers.pipeline.answer.Retriever` (search, has_term and document_frequencies over the
caller's chunks).
A backend makes one for a caller's audiences, re-read for each question (§3). `memory` is the process-wide
in-process index (`answers.retrieval.holder`): exact rank-bm25 scores with each audience tier's own statistics.
Another backend (a search engine with one index per tier, README "Scaling") registers itself in BACKENDS.
"""
from collections.abc import Callable
from typing import Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from answers.pipeline.answer import Retriever
from answers.pipeline.retrieve.hybrid import FusionConfig
from answers.retrieval.caller import CallerRetriever, max_rank_for
from answers.retrieval.holder import current_index_checked


class RetrieverBackend(Protocol):
    """Makes the retriever one question uses, for one caller's audiences."""

    def retriever_for(self, audiences: tuple[str, ...]) -> Retriever:
        """A retriever over exactly the chunks of these audiences, with statistics over exactly those."""
        ...


class MemoryBackend:
    """The index every worker holds in memory: one immutable snapshot per question, seen through the caller's tier."""

    def retriever_for(self, audiences: tuple[str, ...]) -> CallerRetriever:
        """The current snapshot through the audiences' tier (the snapshot is kept for the whole question), marked
        `served` when it is the corpus as served now."""
        snapshot, served = current_index_checked()
        return CallerRetriever(snapshot, max_rank_for(audiences), hybrid=settings.RAG_RETRIEVAL == "hybrid",
                               fusion=fusion_config(), served=served)


def fusion_config() -> FusionConfig:
    """The hybrid fusion the settings ask for (RAG_HYBRID_KEEP_BM25, RAG_HYBRID_DENSE_FLOOR)."""
    return FusionConfig(keep_bm25=settings.RAG_HYBRID_KEEP_BM25, dense_floor=settings.RAG_HYBRID_DENSE_FLOOR)


BACKENDS: dict[str, Callable[[], RetrieverBackend]] = {"memory": MemoryBackend}


def retriever_backend(name: str | None = None) -> RetrieverBackend:
    """The backend named by `name`, or by the RAG_RETRIEVER setting; ImproperlyConfigured for an unknown name."""
    chosen = settings.RAG_RETRIEVER if name is None else name
    try:
        return BACKENDS[chosen]()
    except KeyError:
        raise ImproperlyConfigured(
            f"RAG_RETRIEVER must be one of {', '.join(sorted(BACKENDS))}, not {chosen!r}"
        ) from None


def retriever_for(audiences: tuple[str, ...]) -> Retriever:
    """The retriever for one question of a caller with these audiences, from the configured backend."""
    return retriever_backend().retriever_for(audiences)
