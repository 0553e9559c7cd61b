"""The Messages API on the wire: error types and their statuses, the Message object, a stream's server-sent events."""
from __future__ import annotations

import json
import uuid
from typing import Any, Final

from answers.testing.demo_answers import system_text, text_of

_STATUS_BY_ERROR: Final = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}
_DEFAULT_MESSAGES: Final = {
    "invalid_request_error": "Invalid request.",
    "authentication_error": "invalid x-api-key",
    "permission_error": "Your API key does not have permission to use the specified resource.",
    "not_found_error": "Not found.",
    "rate_limit_error": "Number of request tokens has exceeded your per-minute rate limit.",
    "api_error": "Internal server error.",
    "overloaded_error": "Overloaded",
}


def error_status(error_type: str) -> int:
    """The HTTP status the API answers an error type with (500 for one it does not name)."""
    return _STATUS_BY_ERROR.get(error_type, 500)


def default_message(error_type: str) -> str:
    """The API's message for an error type ("Error." for one it does not name)."""
    return _DEFAULT_MESSAGES.get(error_type, "Error.")


def request_problem(body: Any, headers: Any) -> tuple[int, str, str] | None:
    """What the real API refuses before answering (no key or version, a malformed body): status, type, message."""
    if not (headers.get("x-api-key") or headers.get("authorization")):
        return 401, "authentication_error", "x-api-key header is required"
    if not headers.get("anthropic-version"):
        return 400, "invalid_request_error", "anthropic-version: header is required"
    if not isinstance(body, dict):
        return 400, "invalid_request_error", "The request body must be a JSON object."
    for name, kind in (("model", str), ("max_tokens", int), ("messages", list)):
        if not isinstance(body.get(name), kind):
            return 400, "invalid_request_error", f"{name}: Field required"
    return None


def error_body(error_type: str, message: str, *, request_id: str) -> dict[str, Any]:
    """The API's error body, `{"type": "error", "error": {...}, "request_id": ...}`."""
    return {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id}


def message(body: dict[str, Any], *, text: str | None, stop_reason: str | None, output_tokens: int) -> dict[str, Any]:
    """A Message object; `text=None` gives the empty one that opens a stream."""
    return {
        "id": f"msg_fake_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake"),
        "content": [] if text is None else [{"type": "text", "text": text}],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": _count_input_words(body), "output_tokens": output_tokens},
    }


def stream_opening(body: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The events before any text: the empty message, its one text block opening, a ping."""
    return (
        {"type": "message_start", "message": message(body, text=None, stop_reason=None, output_tokens=1)},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "ping"},
    )


def text_delta(piece: str) -> dict[str, Any]:
    """The event carrying one piece of the answer's text."""
    return {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}


def stream_error(error_type: str) -> dict[str, Any]:
    """The `error` event that ends a stream whose HTTP status was already 200."""
    return {"type": "error", "error": {"type": error_type, "message": default_message(error_type)}}


def stream_closing(*, stop_reason: str, output_tokens: int) -> tuple[dict[str, Any], ...]:
    """The events after the text: the block closing, the stop reason and usage, the message's end."""
    return (
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens},
        },
        {"type": "message_stop"},
    )


def encode_event(data: dict[str, Any]) -> bytes:
    """One server-sent event, named after its `type`."""
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()


def _count_input_words(body: dict[str, Any]) -> int:
    texts = [system_text(body), *(text_of(m.get("content")) for m in body.get("messages", []) if isinstance(m, dict))]
    return sum(len(text.split()) for text in texts)
