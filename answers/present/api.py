"""Folding the event stream into one answer: the JSON object of /api/answer and the conversation log row."""
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from answers.pipeline.events import (
    AnswerDiagnosed,
    AnswerDone,
    AnswerFailed,
    AnswerRefused,
    BlocksIssued,
    ChunkRef,
    Event,
    ListItem,
    QuestionResolved,
    SentenceDropped,
    SentenceVerified,
)
from answers.pipeline.types import SupportSpan


@dataclass
class AnswerSummary:
    """Everything one answer's events said, in the order they said it."""

    question: str
    resolved: QuestionResolved | None = None
    meta: BlocksIssued | None = None
    sentences: list[SentenceVerified] = field(default_factory=list)
    dropped: list[SentenceDropped] = field(default_factory=list)
    refusal: AnswerRefused | None = None
    diagnostics: AnswerDiagnosed | None = None
    error: AnswerFailed | None = None
    done: AnswerDone | None = None

    def add(self, event: Event) -> None:
        """Fold one event in."""
        if isinstance(event, QuestionResolved):
            self.resolved = event
        elif isinstance(event, BlocksIssued):
            self.meta = event
        elif isinstance(event, SentenceVerified):
            self.sentences.append(event)
        elif isinstance(event, SentenceDropped):
            self.dropped.append(event)
        elif isinstance(event, AnswerRefused):
            self.refusal = event
        elif isinstance(event, AnswerDiagnosed):
            self.diagnostics = event
        elif isinstance(event, AnswerFailed):
            self.error = event
        elif isinstance(event, AnswerDone):
            self.done = event

    @property
    def status(self) -> str:
        return self.done.status if self.done else "failed"

    def to_json(self, chunk_url: Callable[[str], str]) -> dict[str, Any]:
        """The /api/answer object of §6 (dropped sentences are for staff and never included)."""
        citations = list(dict.fromkeys(c.chunk_id for s in self.sentences for c in s.citations))
        return {
            "question": self.question,
            "resolved_question": self.resolved.resolved if self.resolved else None,
            "status": self.status,
            "answer": " ".join(s.text for s in self.sentences),
            "sentences": [
                {"text": s.text, "citations": [citation_json(c, chunk_url) for c in s.citations],
                 "list": list_json(s.list_item)}
                for s in self.sentences
            ],
            "citations": citations,
            "refused": self.refusal is not None,
            "refusal": None if self.refusal is None else refusal_json(self.refusal, chunk_url),
            "error": None if self.error is None else self.error.message,
            "sources": [numbered_json(b, chunk_url) for b in (self.meta.blocks if self.meta else ())],
            "retrieved": [
                {"id": chunk_id, "score": score} for chunk_id, score in (self.meta.retrieved if self.meta else ())
            ],
            "context_tokens": self.meta.context_tokens if self.meta else 0,
            "generator": self.done.generator if self.done else "",
            "counts": self.done.counts if self.done else {},
            "timings": self.done.timings if self.done else {},
        }


def event_json(event: Event, chunk_url: Callable[[str], str]) -> dict[str, Any]:
    """One event as the JSON an event stream carries (never called for the staff-only events)."""
    if isinstance(event, QuestionResolved):
        return {"asked": event.asked, "resolved_question": event.resolved}
    if isinstance(event, BlocksIssued):
        return {
            "blocks": [numbered_json(b, chunk_url) for b in event.blocks],
            "context_tokens": event.context_tokens,
        }
    if isinstance(event, SentenceVerified):
        return {"text": event.text, "citations": [citation_json(c, chunk_url) for c in event.citations],
                "list": list_json(event.list_item)}
    if isinstance(event, AnswerRefused):
        return refusal_json(event, chunk_url)
    if isinstance(event, AnswerDone):
        return {"status": event.status, "generator": event.generator, "counts": event.counts, "timings": event.timings}
    if isinstance(event, AnswerFailed):
        return {"message": event.message}
    raise TypeError(f"{type(event).__name__} is not sent to callers")


def source_json(item: ChunkRef, chunk_url: Callable[[str], str]) -> dict[str, Any]:
    """Where a citation, a block or a conflict side comes from: chunk id, URL, source title and date."""
    return {
        "chunk_id": item.chunk_id,
        "url": chunk_url(item.chunk_id),
        "source_title": item.source_title,
        "source_updated_on": _date(item.updated_on),
    }


def numbered_json(item: ChunkRef, chunk_url: Callable[[str], str]) -> dict[str, Any]:
    """A citation or an issued block as JSON: its number n, then its source."""
    return {"n": item.n, **source_json(item, chunk_url)}


def citation_json(item: ChunkRef, chunk_url: Callable[[str], str]) -> dict[str, Any]:
    """A verified citation as JSON: its number and source, then the span that supports the sentence."""
    return {**numbered_json(item, chunk_url), **span_json(item.span)}


def span_json(span: SupportSpan | None) -> dict[str, Any]:
    """A support span (§2.7) as JSON: where it lies in the chunk's text, its sentence numbers (as the chunk page's
    `s-<n>` ids number them), and the quote; both null when there is none."""
    if span is None:
        return {"span": None, "quote": None}
    return {"span": {"start": span.start, "end": span.end, "sentences": list(span.sentences)}, "quote": span.quote}


def list_json(item: ListItem | None) -> dict[str, Any] | None:
    """A sentence's list item as JSON: {"ordered": bool, "item": name} (consecutive sentences naming the same item
    are one item; consecutive items of one kind, one list), or null for a sentence that is not in a list."""
    return None if item is None else {"ordered": item.ordered, "item": item.item}


def list_item_from_json(stored: Any) -> ListItem | None:
    """A list item read back from list_json's form (None for anything else, as in rows stored before lists)."""
    if not isinstance(stored, dict) or not isinstance(stored.get("item"), str):
        return None
    return ListItem(bool(stored.get("ordered")), stored["item"])


def refusal_json(refusal: AnswerRefused, chunk_url: Callable[[str], str]) -> dict[str, Any]:
    """A refusal as JSON, with both sides of a conflict (each with its span when it has one)."""
    return {
        "kind": refusal.reason,
        "message": refusal.message,
        "sides": [
            {"statement": side.statement, **source_json(side.ref, chunk_url), **span_json(side.ref.span)}
            for side in refusal.sides
        ],
    }


def _date(value) -> str | None:
    return value.isoformat() if value else None
