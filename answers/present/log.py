"""An answer as its conversation-log row stores it: what was shown, dropped, retrieved and issued, and why."""
from typing import Any

from answers.pipeline.events import AnswerDiagnosed
from answers.present.api import AnswerSummary, list_json, span_json


def row_status(summary: AnswerSummary) -> str:
    """The status a log row stores: the answer's own, or "cancelled" when it never finished (its caller went away)."""
    return summary.status if summary.done else "cancelled"


def log_row(summary: AnswerSummary) -> dict[str, Any]:
    """The log row's fields that come from the answer's events (the caller's come from the service)."""
    meta = summary.meta
    return {
        "question": summary.question,
        "status": row_status(summary),
        "refusal_kind": summary.refusal.reason if summary.refusal else "",
        "refusal_message": summary.refusal.message if summary.refusal else "",
        "sentences": [
            {"text": s.text, "citations": [{"n": c.n, "chunk_id": c.chunk_id, **span_json(c.span)}
                                           for c in s.citations],
             **({"list": list_json(s.list_item)} if s.list_item else {})}
            for s in summary.sentences
        ],
        "dropped": [{"text": d.text, "reasons": list(d.reasons)} for d in summary.dropped],
        "retrieved": [{"id": chunk_id, "score": score} for chunk_id, score in (meta.retrieved if meta else ())],
        "blocks": [{"n": b.n, "chunk_id": b.chunk_id} for b in (meta.blocks if meta else ())],
        "conflict": [
            {"statement": side.statement, "chunk_id": side.ref.chunk_id, **span_json(side.ref.span)}
            for side in (summary.refusal.sides if summary.refusal else ())
        ],
        "context_tokens": meta.context_tokens if meta else 0,
        "error": summary.error.message if summary.error else "",
        "diagnostics": {**diagnostics_json(summary.diagnostics),
                        **({"resolved_question": summary.resolved.resolved} if summary.resolved else {})},
        "timings": summary.done.timings if summary.done else {},
    }


def diagnostics_json(diagnostics: AnswerDiagnosed | None) -> dict[str, Any]:
    """The staff-only diagnostics as the log row stores them (only what was said)."""
    if diagnostics is None:
        return {}
    stored = {
        "gate": diagnostics.gate,
        "skipped": [{"id": chunk_id, "why": why} for chunk_id, why in diagnostics.skipped],
        "generator_error": diagnostics.generator_error,
    }
    return {field: value for field, value in stored.items() if value}
