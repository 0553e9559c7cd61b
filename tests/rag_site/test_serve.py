"""The site's daphne: a request that arrives too slowly is cut off; one that arrives in time is served."""
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 1
CUT_OFF_WITHIN_S = DEADLINE_S + 4  # daphne's own start, the deadline, and a loaded machine's slack


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """`python -m rag_site.serve` on a free loopback port, with a deadline of one second."""
    port = free_port()
    env = {**os.environ, "RAG_REQUEST_DEADLINE_S": str(DEADLINE_S)}
    command = [sys.executable, "-m", "rag_site.serve", "-b", "127.0.0.1", "-p", str(port), "rag_site.asgi:application"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        started = time.monotonic()
        while True:
            assert server.poll() is None, server.stderr.read().decode()
            assert time.monotonic() - started < 30, "the server did not start within 30 s"
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def drip(port: int, head: bytes, *, every_s: float = 0.1) -> tuple[bytes, float]:
    """Send `head`, then one byte at a time until the server answers or closes: what it said, and when."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=every_s) as client:
        client.sendall(head)
        while time.monotonic() - started < CUT_OFF_WITHIN_S + 5:
            try:
                answer = client.recv(4096)
                return answer, time.monotonic() - started
            except TimeoutError:
                pass
            try:
                client.sendall(b"x")
            except OSError:  # reset: cut off
                return b"", time.monotonic() - started
    return b"", float("inf")


def test_a_body_sent_slowly_is_cut_off_at_the_deadline(port):
    answer, after_s = drip(port, b"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")

    assert after_s < CUT_OFF_WITHIN_S  # wall time: daphne's request deadline, on a real socket
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout")


def test_headers_sent_slowly_are_cut_off_at_the_deadline(port):
    answer, after_s = drip(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")

    assert after_s < CUT_OFF_WITHIN_S  # wall time: daphne's request deadline, on a real socket
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout")


def test_a_request_that_arrives_in_time_is_served(port):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(b"GET /static/js/chat.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk

    assert answer.startswith(b"HTTP/1.1 200") and b"Enter asks" in answer
