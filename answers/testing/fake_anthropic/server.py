"""The fake's HTTP server on 127.0.0.1: start and stop, the requests it recorded, and each response it sends."""
from __future__ import annotations

import collections
import contextlib
import json
import logging
import select
import socket
import socketserver
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

from answers.testing.fake_anthropic import wire
from answers.testing.fake_anthropic.behaviours import Behaviour, Computed, Demo, HttpError, Script, demo, demo_script

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
_POLL = 0.05  # how often waits look at the stop flag; bounds how long stop() takes


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
        problem = wire.request_problem(body, self.headers)
        if problem is not None:
            self.send_error_json(*problem)
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
            error_type = script.error_type
            self.send_error_json(wire.error_status(error_type), error_type, wire.default_message(error_type))
        elif script.ending == "stall":
            self.pause(script.stall_seconds)  # then close without a response, as a cut does at once
        elif script.ending == "stop":
            text = "".join(script.pieces)
            message = wire.message(body, text=text, stop_reason=script.stop_reason, output_tokens=len(text.split()))
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
        if not self.events(wire.stream_opening(body)):
            return
        for number, piece in enumerate(script.pieces):
            if (number and not self.pause(script.delay)) or not self.events([wire.text_delta(piece)]):
                return
        if script.ending == "error":
            self.events([wire.stream_error(script.error_type)])
        elif script.ending == "stall":
            self.pause(script.stall_seconds)
        elif script.ending == "stop":
            output_tokens = len("".join(script.pieces).split())
            if self.events(wire.stream_closing(stop_reason=script.stop_reason, output_tokens=output_tokens)):
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
        """The API's error body with that status."""
        self.send_json(status, wire.error_body(error_type, message, request_id=self.request_id), headers)

    def events(self, events: Sequence[dict[str, Any]]) -> bool:
        """Send server-sent events, each named after its `type`; False when the client has gone."""
        return all(self.write(wire.encode_event(data)) for data in events)

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
