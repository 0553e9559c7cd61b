"""A scriptable fake of the Anthropic Messages API on 127.0.0.1, for the tests and the demo.

It speaks the wire protocol of `POST /v1/messages` (JSON, or server-sent events with `"stream": true`), so the
real `anthropic` SDK runs against it unchanged: `AsyncAnthropic(base_url=fake.url, api_key="test")`.

    with FakeAnthropic() as fake:
        fake.queue(reply("Refunds take ", "5 days [1]."), http_error(529, "overloaded_error"))
        ...  # one queued behaviour answers each request; then `demo()` answers from the prompt

Run `python -m answers.testing.fake_anthropic --port 8089` to serve demo answers until Ctrl-C.

This package's public face: callers import from `answers.testing.fake_anthropic`. Inside, `behaviours` holds what a
request can be answered with, `wire` the API's JSON and event shapes, `server` the HTTP server, and `__main__` the
command.
"""
from answers.testing.demo_answers import REFUSAL, parse_blocks  # parse_blocks: re-exported for its tests
from answers.testing.fake_anthropic.behaviours import (
    Behaviour,
    Computed,
    Demo,
    HttpError,
    Script,
    computed,
    cut,
    demo,
    demo_script,
    drip,
    error_event,
    http_error,
    max_tokens,
    reply,
    stall,
)
from answers.testing.fake_anthropic.server import FakeAnthropic

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
