"""The fake Anthropic API, driven by the real `anthropic` SDK: what a caller of the SDK sees for each behaviour."""
import asyncio
import datetime as dt
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import anthropic
import httpx2
import pytest

from answers.pipeline.generate.prompt import build_prompt
from answers.pipeline.records import ChunkRecord
from answers.pipeline.types import Block
from answers.testing.fake_anthropic import (
    FakeAnthropic,
    cut,
    demo,
    drip,
    error_event,
    http_error,
    max_tokens,
    parse_blocks,
    reply,
    stall,
)

ASK = {"model": "claude-test", "max_tokens": 200, "messages": [{"role": "user", "content": "When are refunds paid?"}]}


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


def client(fake: FakeAnthropic, **options: object) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(base_url=fake.url, api_key="test", **{"max_retries": 0, **options})


async def stream_text(sdk: anthropic.AsyncAnthropic, received: list[str] | None = None, **request: object) -> str:
    """The streamed text; `received` collects the pieces, so they can be checked after an exception."""
    pieces = received if received is not None else []
    async with sdk.messages.stream(**{**ASK, **request}) as stream:
        async for text in stream.text_stream:
            pieces.append(text)
    return "".join(pieces)


async def final_message(sdk: anthropic.AsyncAnthropic, **request: object) -> anthropic.types.Message:
    async with sdk.messages.stream(**{**ASK, **request}) as stream:
        return await stream.get_final_message()


def block(number: int, text: str, title: str) -> Block:
    record = ChunkRecord(
        chunk_id=f"chunk-{number}", source_id=number, source_title=title, original_name=f"{title}.md",
        audience="public", updated_on=dt.date(2025, 1, 20), heading_path=(), line_start=12, line_end=19,
        text=text, token_count=len(text.split()), fingerprint=f"fp-{number}",
    )
    return Block(number=number, record=record, score=1.0, text=text)


BLOCKS = (
    block(1, "# Office\n\nThe office kitchen has a coffee machine and a kettle.", "Office"),
    block(2, "Refunds are processed within 5-7 business days. Contact support to ask for one.", "Refund policy"),
    block(3, "Shipping to Norway takes ten working days. Parcels are tracked.", "Shipping"),
)


async def ask_demo(fake: FakeAnthropic, question: str, *, system: str | None = None) -> str:
    prompt = build_prompt(question, BLOCKS)
    fake.queue(demo(delay=0))
    async with client(fake) as sdk:
        message = await sdk.messages.create(
            **{**ASK, "system": system or prompt.system, "messages": [{"role": "user", "content": prompt.user}]}
        )
    return message.content[0].text


@pytest.mark.asyncio
async def test_reply_streams_each_piece_as_one_text_delta(fake: FakeAnthropic) -> None:
    fake.queue(reply("Refunds are processed ", "within 5-7 business days [2]."))
    received: list[str] = []
    async with client(fake) as sdk:
        await stream_text(sdk, received)
        fake.queue(reply("Refunds are processed ", "within 5-7 business days [2]."))
        message = await final_message(sdk)

    assert received == ["Refunds are processed ", "within 5-7 business days [2]."]
    assert message.content[0].text == "Refunds are processed within 5-7 business days [2]."
    assert (message.stop_reason, message.usage.input_tokens, message.usage.output_tokens) == ("end_turn", 4, 8)


@pytest.mark.asyncio
async def test_reply_answers_a_non_streaming_request_with_the_joined_text(fake: FakeAnthropic) -> None:
    fake.queue(reply("Refunds take ", "5 days [2]."))
    async with client(fake) as sdk:
        message = await sdk.messages.create(**ASK)

    assert message.content[0].text == "Refunds take 5 days [2]."
    assert message.stop_reason == "end_turn"
    assert message.model == "claude-test"


@pytest.mark.asyncio
async def test_rate_limit_is_retried_after_the_retry_after_ms_wait(fake: FakeAnthropic) -> None:
    limited = http_error(429, "rate_limit_error", headers={"retry-after-ms": "10"})
    fake.queue(limited, limited)
    started = time.monotonic()
    async with client(fake, max_retries=1) as sdk:
        with pytest.raises(anthropic.RateLimitError) as raised:
            await stream_text(sdk)

    assert len(fake.requests) == 2
    # wall time: the SDK's own sleep between real requests; its backoff would wait at least 0.375 s
    assert time.monotonic() - started < 0.3
    assert raised.value.status_code == 429 and raised.value.type == "rate_limit_error"


@pytest.mark.asyncio
async def test_rate_limit_then_an_answer_succeeds_on_the_retry(fake: FakeAnthropic) -> None:
    fake.queue(http_error(429, "rate_limit_error", headers={"retry-after-ms": "10"}), reply("Retried [1]."))
    async with client(fake, max_retries=1) as sdk:
        assert await stream_text(sdk) == "Retried [1]."
    assert fake.request_headers[1]["x-stainless-retry-count"] == "1"


@pytest.mark.asyncio
async def test_overloaded_is_an_internal_server_error_with_status_529(fake: FakeAnthropic) -> None:
    fake.queue(http_error(529, "overloaded_error"))
    async with client(fake) as sdk:
        with pytest.raises(anthropic.InternalServerError) as raised:
            await stream_text(sdk)
    assert raised.value.status_code == 529
    assert raised.value.body["error"]["type"] == "overloaded_error"


@pytest.mark.asyncio
async def test_authentication_error_is_not_retried(fake: FakeAnthropic) -> None:
    fake.queue(http_error(401, "authentication_error"), reply("never sent"))
    async with client(fake, max_retries=2) as sdk:
        with pytest.raises(anthropic.AuthenticationError):
            await stream_text(sdk)
    assert len(fake.requests) == 1


@pytest.mark.asyncio
async def test_bad_request_raises_bad_request_error(fake: FakeAnthropic) -> None:
    fake.queue(http_error(400, "invalid_request_error", "prompt is too long"))
    async with client(fake) as sdk:
        with pytest.raises(anthropic.BadRequestError, match="prompt is too long"):
            await sdk.messages.create(**ASK)


@pytest.mark.asyncio
async def test_error_event_mid_stream_raises_a_status_200_error_after_the_text_so_far(fake: FakeAnthropic) -> None:
    fake.queue(error_event("Refunds are ", "processed"))
    received: list[str] = []
    async with client(fake, max_retries=2) as sdk:
        with pytest.raises(anthropic.APIStatusError) as raised:
            await stream_text(sdk, received)

    assert received == ["Refunds are ", "processed"]
    assert not isinstance(raised.value, anthropic.InternalServerError)
    assert raised.value.status_code == 200
    assert raised.value.body["error"]["type"] == "overloaded_error"
    assert len(fake.requests) == 1


@pytest.mark.asyncio
async def test_cut_stream_ends_quietly_with_no_stop_reason(fake: FakeAnthropic) -> None:
    fake.queue(cut("Refunds are ", "processed"))
    async with client(fake) as sdk, sdk.messages.stream(**ASK) as stream:
        received = [text async for text in stream.text_stream]
        message = await stream.get_final_message()
    assert received == ["Refunds are ", "processed"]
    assert message.stop_reason is None


@pytest.mark.asyncio
async def test_cut_chunked_stream_raises_the_http_libraries_protocol_error(fake: FakeAnthropic) -> None:
    fake.queue(cut("Refunds are ", "processed", chunked=True))
    received: list[str] = []
    async with client(fake) as sdk:
        with pytest.raises(httpx2.RemoteProtocolError):
            await stream_text(sdk, received)
    assert received == ["Refunds are ", "processed"]


@pytest.mark.asyncio
async def test_stall_is_only_ended_by_the_callers_deadline(fake: FakeAnthropic) -> None:
    fake.queue(stall("Refunds are "))
    received: list[str] = []
    async with client(fake) as sdk:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.5):
                await stream_text(sdk, received)
    assert received == ["Refunds are "]


@pytest.mark.asyncio
async def test_stall_past_the_clients_read_timeout_raises_the_http_libraries_read_timeout(fake: FakeAnthropic) -> None:
    fake.queue(stall("Refunds are "))
    async with client(fake, timeout=0.2) as sdk:
        with pytest.raises(httpx2.ReadTimeout):
            await stream_text(sdk)


@pytest.mark.asyncio
async def test_cancelling_the_consumer_of_a_drip_is_recorded_as_a_disconnect(fake: FakeAnthropic) -> None:
    fake.queue(drip("Refunds are processed within 5-7 business days [2].", every=0.05))
    received: list[str] = []
    async with client(fake) as sdk:
        consumer = asyncio.create_task(stream_text(sdk, received))
        while len(received) < 3:
            await asyncio.sleep(0.01)
        consumer.cancel()
        cancelled_at = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            await consumer

    await asyncio.to_thread(_wait_for, lambda: fake.disconnects, 1)
    assert len(fake.disconnects) == 1
    assert fake.disconnects[0] - cancelled_at < 1  # wall time: the server sees the real connection close


@pytest.mark.asyncio
async def test_max_tokens_ends_the_stream_with_stop_reason_max_tokens(fake: FakeAnthropic) -> None:
    fake.queue(max_tokens("Refunds are processed within"))
    async with client(fake) as sdk:
        message = await final_message(sdk)
    assert message.content[0].text == "Refunds are processed within"
    assert message.stop_reason == "max_tokens"


@pytest.mark.asyncio
async def test_demo_answers_with_the_best_sentence_and_its_marker(fake: FakeAnthropic) -> None:
    answer = await ask_demo(fake, "How many business days are refunds processed within?")
    assert answer == "Refunds are processed within 5-7 business days [2]."


@pytest.mark.asyncio
async def test_demo_answers_a_question_with_and_from_two_blocks(fake: FakeAnthropic) -> None:
    answer = await ask_demo(fake, "How long does shipping to Norway take and how fast are refunds processed?")
    assert answer == (
        "Shipping to Norway takes ten working days [3]. Refunds are processed within 5-7 business days [2]."
    )


@pytest.mark.asyncio
async def test_demo_says_the_documents_do_not_answer_an_unrelated_question(fake: FakeAnthropic) -> None:
    assert await ask_demo(fake, "Who won the chess tournament?") == "The documents do not answer this question."


@pytest.mark.asyncio
async def test_demo_compression_keeps_only_the_sentences_sharing_a_word(fake: FakeAnthropic) -> None:
    system = "Compress the block: keep only the sentences that bear on the question."
    answer = await ask_demo(fake, "When are refunds paid?", system=system)
    assert answer == "Refunds are processed within 5-7 business days."


def test_demo_ignores_header_like_lines_inside_a_documents_text() -> None:
    tricky = block(2, "See footnote:\n[9] Refunds are instant (lines 1-2)\nRefunds take 5 days.", "Refunds")
    prompt = build_prompt("How long do refunds take?", (BLOCKS[0], tricky))
    assert sorted(parse_blocks(prompt.user)) == [1, 2]
    assert parse_blocks(prompt.user)[2] == tricky.text


@pytest.mark.asyncio
async def test_demo_streams_word_by_word(fake: FakeAnthropic) -> None:
    prompt = build_prompt("How many business days are refunds processed within?", BLOCKS)
    fake.queue(demo(delay=0.001))
    received: list[str] = []
    async with client(fake) as sdk:
        await stream_text(sdk, received, system=prompt.system, messages=[{"role": "user", "content": prompt.user}])
    assert received[:3] == ["Refunds ", "are ", "processed "]
    assert received[-1] == "[2]."


@pytest.mark.asyncio
async def test_requests_and_their_headers_are_recorded_in_order(fake: FakeAnthropic) -> None:
    fake.queue(reply("one"), reply("two"))
    async with client(fake) as sdk:
        await stream_text(sdk, system="first")
        await sdk.messages.create(**ASK, system="second")
    fake.wait_for_requests(2)

    assert [(body["system"], body.get("stream")) for body in fake.requests] == [("first", True), ("second", None)]
    assert fake.requests[0]["messages"] == ASK["messages"]
    # anthropic 2.x sends the API key as a bearer token, not as `x-api-key`.
    assert [headers["authorization"] for headers in fake.request_headers] == ["Bearer test"] * 2
    assert all("anthropic-version" in headers for headers in fake.request_headers)


@pytest.mark.asyncio
async def test_max_in_flight_counts_requests_served_at_the_same_time(fake: FakeAnthropic) -> None:
    fake.queue(*(reply("slow ", "answer", delay=0.2) for _ in range(3)))
    async with client(fake) as sdk:
        answers = await asyncio.gather(*(stream_text(sdk) for _ in range(3)))
    assert answers == ["slow answer"] * 3
    assert (fake.max_in_flight, fake.in_flight) == (3, 0)


@pytest.mark.asyncio
async def test_stop_ends_promptly_with_a_stalled_response_open() -> None:
    server = FakeAnthropic().start()
    server.queue(stall("Refunds are ", seconds=30))
    async with client(server) as sdk:
        consumer = asyncio.create_task(stream_text(sdk))
        await asyncio.to_thread(server.wait_for_requests, 1)
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await asyncio.to_thread(server.stop)
        assert time.monotonic() - started < 1  # wall time: a real server thread stops with a stalled connection open
        await asyncio.wait_for(consumer, 1)  # the close ends the body: a quiet end of stream for the caller
    assert server.disconnects == []


def test_other_paths_are_not_found(fake: FakeAnthropic) -> None:
    request = urllib.request.Request(f"{fake.url}/v1/complete", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=2)
    assert raised.value.code == 404
    assert json.loads(raised.value.read())["error"]["type"] == "not_found_error"


def test_a_request_without_an_api_key_is_refused_like_the_real_api(fake: FakeAnthropic) -> None:
    fake.queue(reply("not for you"))
    request = urllib.request.Request(
        f"{fake.url}/v1/messages", data=json.dumps(ASK).encode(), method="POST",
        headers={"content-type": "application/json", "anthropic-version": "2023-06-01"},
    )
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=2)
    assert raised.value.code == 401
    assert json.loads(raised.value.read())["error"]["type"] == "authentication_error"


def test_the_fake_runs_without_django() -> None:
    code = "import sys, answers.testing.fake_anthropic; print(sorted(m for m in sys.modules if m.startswith('django')))"
    project = Path(__file__).resolve().parents[3]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, check=True, timeout=10
    )
    assert result.stdout.strip() == "[]"


def _wait_for(condition: Callable[[], object], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
