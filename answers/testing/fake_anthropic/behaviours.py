"""What the fake answers a request with: scripted text (ending cleanly, in an error, cut or stalled), an HTTP error,
the demo answer computed from the prompt, or a behaviour chosen per request."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from answers.testing.demo_answers import demo_answer, is_compression
from answers.testing.fake_anthropic.wire import default_message

Ending = Literal["stop", "error", "cut", "stall"]


@dataclass(frozen=True)
class Script:
    """A scripted answer: its text pieces, the pause between them, and how the stream ends."""

    pieces: tuple[str, ...]
    stop_reason: str = "end_turn"
    delay: float = 0.0
    ending: Ending = "stop"
    error_type: str = "overloaded_error"
    stall_seconds: float = 0.0
    chunked: bool = False


@dataclass(frozen=True)
class HttpError:
    """An error status with the API's JSON error body, sent before any answer text."""

    status: int
    error_type: str
    message: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Demo:
    """A plausible answer computed from the request's evidence blocks and question."""

    delay: float = 0.02


@dataclass(frozen=True)
class Computed:
    """A behaviour chosen per request from its JSON body (for answers that depend on what was asked)."""

    choose: Callable[[dict[str, Any]], Script | HttpError]


Behaviour = Script | HttpError | Demo | Computed


def reply(*pieces: str, stop_reason: str = "end_turn", delay: float = 0.0) -> Script:
    """Stream each piece as one text delta, `delay` seconds apart; a non-streaming request gets them joined."""
    return Script(pieces, stop_reason=stop_reason, delay=delay)


def max_tokens(*pieces: str) -> Script:
    """Stream the pieces, then stop with `max_tokens`."""
    return Script(pieces, stop_reason="max_tokens")


def http_error(
    status: int, error_type: str, message: str | None = None, headers: dict[str, str] | None = None
) -> HttpError:
    """Answer with an HTTP error, e.g. `http_error(429, "rate_limit_error", headers={"retry-after": "1"})`."""
    text = message if message is not None else default_message(error_type)
    return HttpError(status, error_type, text, tuple((headers or {}).items()))


def error_event(*pieces: str, error_type: str = "overloaded_error") -> Script:
    """Stream the pieces, then an `event: error` (HTTP status stays 200); non-streaming: that error's status."""
    return Script(pieces, ending="error", error_type=error_type)


def cut(*pieces: str, chunked: bool = False) -> Script:
    """Stream the pieces, then close the connection without `message_delta` / `message_stop`.

    The body normally ends where the connection closes, so the client sees a clean end of stream. With `chunked`,
    it is sent in chunked transfer encoding, as the real API does over HTTP/1.1, and the cut is a broken body.
    """
    return Script(pieces, ending="cut", chunked=chunked)


def stall(*pieces: str, seconds: float = 30) -> Script:
    """Stream the pieces, then hold the connection open in silence for `seconds`, then close it."""
    return Script(pieces, ending="stall", stall_seconds=seconds)


def drip(text: str, every: float = 0.05) -> Script:
    """Stream one character every `every` seconds (a slow answer to disconnect from)."""
    return Script(tuple(text), delay=every)


def computed(choose: Callable[[dict[str, Any]], Script | HttpError]) -> Computed:
    """Answer each request with the behaviour `choose(body)` returns."""
    return Computed(choose)


def demo(delay: float = 0.02) -> Demo:
    """Answer from the prompt's evidence blocks, word by word `delay` seconds apart (see `demo_script`)."""
    return Demo(delay)


def demo_script(body: dict[str, Any], *, delay: float = 0.02) -> Script:
    """The demo answer for a request, as one piece per word (compression answers come at once)."""
    pieces = tuple(re.findall(r"\S+\s*", demo_answer(body)))
    return Script(pieces) if is_compression(body) else Script(pieces, delay=delay)
