"""/api/answer/stream: the same events as Server-Sent Events, each verified sentence flushed as it is verified."""
import asyncio
import json

import pytest
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import StreamingHttpResponse
from django.test import AsyncRequestFactory
from django.urls import resolve

from answers.models import QuestionLog
from answers.services import GeneratorFactory
from answers.testing.scripted import ScriptedGenerator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"


@pytest.fixture
def corpus(ingest, filler):
    ingest(
        "trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n\nThe trash is emptied by owners.\n"
    )


def parse(stream_text: str) -> list[tuple[str, dict]]:
    events = []
    for block in stream_text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


async def read_all(response) -> str:
    return "".join([chunk.decode() async for chunk in response.streaming_content])


async def stream_with(generator: GeneratorFactory, question: str) -> StreamingHttpResponse:
    """GET /api/answer/stream?question=... from its URLconf's view, called with `generator` for the site's."""
    request = AsyncRequestFactory().get("/api/answer/stream", {"question": question})
    SessionMiddleware(lambda request: None).process_request(request)  # as the site's middleware leaves a request
    AuthenticationMiddleware(lambda request: None).process_request(request)
    route = resolve(request.path)
    return await route.func(request, *route.args, **{**route.kwargs, "make_generator": generator})


async def test_stream_sends_meta_sentence_and_done_events(async_client, corpus):
    response = await async_client.get("/api/answer/stream", {"question": TRASH_Q})

    events = parse(await read_all(response))
    assert response["Content-Type"] == "text/event-stream" and response["Cache-Control"] == "no-store"
    assert [name for name, _ in events] == ["meta", "sentence", "done"]
    assert events[1][1]["text"] == "Deleted files are kept in the trash for 30 days."
    assert events[1][1]["citations"][0]["url"] == "/chunks/trash-v1-c01/"
    assert events[2][1]["status"] == "answered"


async def test_post_json_works_too_and_refusals_are_events(async_client, corpus):
    response = await async_client.post(
        "/api/answer/stream", {"question": "What is the capital of France?"}, content_type="application/json"
    )

    events = parse(await read_all(response))
    assert [name for name, _ in events] == ["meta", "refusal", "done"]
    assert events[1][1]["kind"] == "no_material"


async def test_deeply_nested_json_gets_400_with_a_json_error(async_client):
    response = await async_client.post("/api/answer/stream", "[" * 100_000, content_type="application/json")

    assert response.status_code == 400
    assert "nested too deeply" in json.loads(response.content)["error"]


async def test_each_sentence_is_flushed_before_the_generator_finishes(corpus):
    release = asyncio.Event()

    held = ScriptedGenerator(
        ["Deleted files are kept in the trash for 30 days [1]. The", release, " trash is emptied by owners [1]. "],
        name="held", regenerates=False,
    )
    response = await stream_with(held, TRASH_Q)
    chunks = response.streaming_content.__aiter__()

    first = [await asyncio.wait_for(chunks.__anext__(), 5) for _ in range(2)]
    release.set()
    rest = [chunk async for chunk in chunks]

    assert first[1].decode().startswith("event: sentence") and "30 days" in first[1].decode()
    assert any("emptied by owners" in chunk.decode() for chunk in rest)


async def test_dropped_sentences_never_reach_the_stream_but_are_logged(corpus):
    fabricating = ScriptedGenerator(
        ["Deleted files are kept in the trash for 90 days [1]. Deleted files are kept in the trash for 30 days [1]."],
        name="fabricating", regenerates=False,
    )

    text = await read_all(await stream_with(fabricating, TRASH_Q))

    assert "90 days" not in text and "event: dropped" not in text
    log = await QuestionLog.objects.aget()
    assert log.channel == "sse" and "90 days" in log.dropped[0]["text"]


@pytest.mark.parametrize(("query", "status"), [({}, 400), ({"question": "x" * 2001}, 400)])
async def test_bad_questions_get_400_json(async_client, query, status):
    response = await async_client.get("/api/answer/stream", query)

    assert response.status_code == status and "error" in json.loads(response.content)


async def test_redis_down_gives_503_before_any_event(async_client, corpus, settings, redis_server):
    settings.RAG_RATE_LIMIT = 20
    redis_server.stop()

    response = await async_client.get("/api/answer/stream", {"question": TRASH_Q})

    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "busy and cannot answer right now" in json.loads(response.content)["error"]


async def test_a_locked_database_gives_503_before_any_event(async_client, corpus, locked_database):
    with locked_database():
        response = await async_client.get("/api/answer/stream", {"question": TRASH_Q})

    assert response.status_code == 503 and response["Content-Type"] == "application/json"
    assert "busy and cannot answer right now" in json.loads(response.content)["error"]
