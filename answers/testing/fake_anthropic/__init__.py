"""A scriptable fake of the Anthropic Messages API on 127.0.0.1, for the tests and the demo.

It speaks the wire protocol of `POST /v1/messages` (JSON, or server-sent events with `"stream": true`), so the
real `anthropic` SDK runs against it unchanged: `AsyncAnthropic(base_url=fake.url, api_key="test")`.

    with FakeAnthropic() as fake:
        fake.queue(reply("Refunds take ", "5 days [1]."), http_error(529, "overloaded_error"))
        ...  # one queued behaviour answers each request; then `demo()` answers from the prompt

Run `python -m answers.testing.fake_anthropic --port 8089` to serve demo answers until Ctrl-C.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
import logging
import re
import select
import socket
import socketserver
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal
from urllib.parse import urlsplit

from answers.testing.demo_answers import (
    REFUSAL,
    demo_answer,
    is_compression,
    parse_blocks,  # re-exported for its tests
    system_text,
    text_of,
)

__all__ = [
    "Behaviour",
    "Computed",
    "Demo",
    "FakeAnthropic",
    "HttpError",
    "REFUSAL",
    "Script",
    "cut",
    "computed",
    "demo",
    "demo_script",
    "drip",
    "error_event",
    "http_error",
    "max_tokens",
    "parse_blocks",
    "reply",
    "stall",
]

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
_POLL = 0.05  # how often waits look at the stop flag; bounds how long stop() takes
_STATUS_BY_ERROR = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}
_DEFAULT_MESSAGES = {
    "invalid_request_error": "Invalid request.",
    "authentication_error": "invalid x-api-key",
    "permission_error": "Your API key does not have permission to use the specified resource.",
    "not_found_error": "Not found.",
    "rate_limit_error": "Number of request tokens has exceeded your per-minute rate limit.",
    "api_error": "Internal server error.",
    "overloaded_error": "Overloaded",
}

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
    text = message if message is not None else _DEFAULT_MESSAGES.get(error_type, "Error.")
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


def _count_input_words(body: dict[str, Any]) -> int:
    texts = [system_text(body), *(text_of(m.get("content")) for m in body.get("messages", []) if isinstance(m, dict))]
    return sum(len(text.split()) for text in texts)


# --- the server ---------------------------------------------------------------------------------------------


class FakeAnthropic:
    """A scriptable Anthropic Messages API on 127.0.0.1, for tests and demos."""

    def __init__(self, *, port: int = 0, default: Behaviour | None = None) -> None:
        self.port = port
        self.default: Behaviour = default if default is not None else demo()
        self.requests: list[dict[str, Any]] = []
        self.request_headers: list[dict[str, str]] = []
        self.disconnects: list[float] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: collections.deque[Behaviour] = collections.deque()
        self._changed = threading.Condition()
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL to give the SDK (no `/v1`)."""
        if self._server is None:
            raise RuntimeError("FakeAnthropic is not started")
        return f"http://{HOST}:{self._server.server_address[1]}"

    def start(self) -> FakeAnthropic:
        """Listen and serve on a daemon thread."""
        if self._server is not None:
            raise RuntimeError("FakeAnthropic is already started")
        self._stopping.clear()
        self._server = _Server((HOST, self.port), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-anthropic", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, ending open (even stalled) responses; returns within about a second."""
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        with self._changed:
            connections = list(self._connections)
        for connection in connections:
            _shutdown(connection)
        server.server_close()  # joins the handler threads, which all end at their next poll
        if self._thread is not None:
            self._thread.join(timeout=1)

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def queue(self, *behaviours: Behaviour) -> None:
        """Answer the next requests with these behaviours, one each, in order; then with `default`."""
        with self._changed:
            self._queue.extend(behaviours)

    def wait_for_requests(self, n: int, timeout: float = 5) -> None:
        """Block until at least `n` requests have arrived; raise TimeoutError otherwise."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.requests) >= n, timeout=timeout):
                raise TimeoutError(f"expected {n} requests within {timeout} s, got {len(self.requests)}")

    # Called from the handler threads.

    def _received(self, body: dict[str, Any], headers: dict[str, str]) -> None:
        with self._changed:
            self.requests.append(body)
            self.request_headers.append(headers)
            self._changed.notify_all()

    def _next_behaviour(self) -> Behaviour:
        with self._changed:
            return self._queue.popleft() if self._queue else self.default

    def _enter(self) -> None:
        with self._changed:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._changed:
            self.in_flight -= 1

    def _disconnected(self) -> None:
        with self._changed:
            self.disconnects.append(time.monotonic())
            self._changed.notify_all()

    def _track(self, connection: socket.socket) -> None:
        with self._changed:
            self._connections.add(connection)
        if self._stopping.is_set():
            _shutdown(connection)

    def _untrack(self, connection: socket.socket) -> None:
        with self._changed:
            self._connections.discard(connection)


def _shutdown(connection: socket.socket) -> None:
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default backlog of 5 drops connections when many requests arrive at once
    fake: FakeAnthropic

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks the host name up (getfqdn), which can hang with no network.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = HOST, self.server_address[1]

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], OSError):
            log.exception("fake Anthropic handler failed for %s", client_address)


class _Handler(BaseHTTPRequestHandler):
    """Translates HTTP to and from the fake; every response closes its connection."""

    protocol_version = "HTTP/1.1"
    server: _Server
    chunked = False

    def setup(self) -> None:
        super().setup()
        self.server.fake._track(self.connection)
        self.request_id = f"req_fake_{uuid.uuid4().hex[:20]}"

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.fake._untrack(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)

    def do_GET(self) -> None:
        self.send_error_json(404, "not_found_error", f"Not found: {self.path}")

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        if urlsplit(self.path).path != "/v1/messages":
            self.send_error_json(404, "not_found_error", f"Not found: {self.path}")
            return
        try:
            body = json.loads(raw)
        except ValueError:
            self.send_error_json(400, "invalid_request_error", "The request body is not valid JSON.")
            return
        fake = self.server.fake
        fake._received(body, {name.lower(): value for name, value in self.headers.items()})
        fake._enter()
        try:
            self.respond(body)
        except OSError as error:
            self.lost(error)
        finally:
            fake._leave()
            self.close_connection = True

    def respond(self, body: dict[str, Any]) -> None:
        """Check the request as the API would, then answer with the next behaviour."""
        problem = _invalid(body, self.headers)
        if problem is not None:
            self.send_error_json(problem.status, problem.error_type, problem.message)
            return
        behaviour = self.server.fake._next_behaviour()
        if isinstance(behaviour, Demo):
            behaviour = demo_script(body, delay=behaviour.delay)
        elif isinstance(behaviour, Computed):
            behaviour = behaviour.choose(body)
        if isinstance(behaviour, HttpError):
            self.send_error_json(behaviour.status, behaviour.error_type, behaviour.message, behaviour.headers)
        elif body.get("stream"):
            self.stream(body, behaviour)
        else:
            self.message(body, behaviour)

    def message(self, body: dict[str, Any], script: Script) -> None:
        """A non-streaming answer: the whole text after the time the stream would have taken."""
        if not self.pause(script.delay * max(len(script.pieces) - 1, 0)):
            return
        if script.ending == "error":
            status = _STATUS_BY_ERROR.get(script.error_type, 500)
            self.send_error_json(status, script.error_type, _DEFAULT_MESSAGES.get(script.error_type, "Error."))
        elif script.ending == "stall":
            self.pause(script.stall_seconds)  # then close without a response, as a cut does at once
        elif script.ending == "stop":
            text = "".join(script.pieces)
            message = _message(body, text=text, stop_reason=script.stop_reason, output_tokens=len(text.split()))
            self.send_json(200, message)

    def stream(self, body: dict[str, Any], script: Script) -> None:
        """The server-sent events of one answer, ending as the script says."""
        self.send_response(200)
        for name, value in (("content-type", "text/event-stream; charset=utf-8"), ("cache-control", "no-cache"),
                            ("request-id", self.request_id), ("connection", "close")):
            self.send_header(name, value)
        if script.chunked:
            self.send_header("transfer-encoding", "chunked")
        self.chunked = script.chunked
        self.end_headers()
        start = _message(body, text=None, stop_reason=None, output_tokens=1)
        opening = (
            {"type": "message_start", "message": start},
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            {"type": "ping"},
        )
        if not self.events(opening):
            return
        for number, piece in enumerate(script.pieces):
            delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
            if (number and not self.pause(script.delay)) or not self.events([delta]):
                return
        if script.ending == "error":
            message = _DEFAULT_MESSAGES.get(script.error_type, "Error.")
            self.events([{"type": "error", "error": {"type": script.error_type, "message": message}}])
        elif script.ending == "stall":
            self.pause(script.stall_seconds)
        elif script.ending == "stop":
            closing = (
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": script.stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": len("".join(script.pieces).split())},
                },
                {"type": "message_stop"},
            )
            if self.events(closing):
                self.write(b"")
        # A cut sends nothing more: the connection closes when the handler returns.

    def send_json(self, status: int, payload: dict[str, Any], headers: tuple[tuple[str, str], ...] = ()) -> None:
        """A complete JSON response that closes the connection."""
        raw = json.dumps(payload).encode()
        self.send_response(status, "Overloaded" if status == 529 else None)
        for name, value in (("content-type", "application/json"), ("content-length", str(len(raw))),
                            ("request-id", self.request_id), ("connection", "close"), *headers):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def send_error_json(
        self, status: int, error_type: str, message: str, headers: tuple[tuple[str, str], ...] = ()
    ) -> None:
        """The API's error body, `{"type": "error", "error": {...}, "request_id": ...}`, with that status."""
        error = {"type": "error", "error": {"type": error_type, "message": message}, "request_id": self.request_id}
        self.send_json(status, error, headers)

    def events(self, events: Sequence[dict[str, Any]]) -> bool:
        """Send server-sent events, each named after its `type`; False when the client has gone."""
        return all(self.write(f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()) for data in events)

    def write(self, data: bytes) -> bool:
        """Send part of a streamed body (`b""` ends a chunked one; a close ends the other); False if the client went."""
        if self.chunked:
            data = b"%x\r\n%s\r\n" % (len(data), data)
        elif not data:
            return True
        try:
            self.wfile.write(data)
        except OSError as error:
            self.lost(error)
            return False
        return True

    def pause(self, seconds: float) -> bool:
        """Wait in silence; False, early, when the server stops or the client disconnects."""
        deadline = time.monotonic() + seconds
        while not self.server.fake._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            # Readable with nothing to read is how a closed socket shows before any write fails.
            readable, _, _ = select.select([self.connection], [], [], min(left, _POLL))
            if readable and self.client_gone():
                self.lost(ConnectionResetError())
                return False
            if readable:
                time.sleep(min(left, _POLL))  # unexpected bytes from the client: do not spin on them
        return False

    def client_gone(self) -> bool:
        """Whether the peer has closed its end (a read would return end-of-file or fail)."""
        try:
            return self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True

    def lost(self, error: OSError) -> None:
        """Record a client that went away mid-response (not a connection the server itself shut down)."""
        self.close_connection = True
        if isinstance(error, ConnectionError) and not self.server.fake._stopping.is_set():
            self.server.fake._disconnected()


def _invalid(body: dict[str, Any], headers: Any) -> HttpError | None:
    """What the real API rejects before answering: no credentials, no version, a malformed body."""
    if not (headers.get("x-api-key") or headers.get("authorization")):
        return http_error(401, "authentication_error", "x-api-key header is required")
    if not headers.get("anthropic-version"):
        return http_error(400, "invalid_request_error", "anthropic-version: header is required")
    if not isinstance(body, dict):
        return http_error(400, "invalid_request_error", "The request body must be a JSON object.")
    for name, kind in (("model", str), ("max_tokens", int), ("messages", list)):
        if not isinstance(body.get(name), kind):
            return http_error(400, "invalid_request_error", f"{name}: Field required")
    return None


def _message(body: dict[str, Any], *, text: str | None, stop_reason: str | None, output_tokens: int) -> dict[str, Any]:
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


def main(argv: list[str] | None = None) -> None:
    """Serve demo answers until Ctrl-C."""
    parser = argparse.ArgumentParser(description="A fake Anthropic Messages API that answers from the prompt.")
    parser.add_argument("--port", type=int, default=8089)
    port = parser.parse_args(argv).port
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    with FakeAnthropic(port=port) as fake:
        print(f"Fake Anthropic API serving demo answers on {fake.url}", flush=True)
        print(f"Point the SDK at it: ANTHROPIC_BASE_URL={fake.url} ANTHROPIC_API_KEY=demo. Ctrl-C stops.", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("Stopped.")


if __name__ == "__main__":
    main()
