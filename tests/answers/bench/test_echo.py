"""The stack's ceiling: the echo socket answers each question frame with one frame of a one-sentence answer."""
import json

import pytest
from channels.testing import WebsocketCommunicator

from answers.bench.echo import ECHO_SENTENCE, echo_frame
from answers.bench.load import read_frame
from answers.routing import websocket_urls
from answers.services import choose_generator
from rag_site.asgi import websocket_application

pytestmark = pytest.mark.asyncio

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def echo_socket() -> WebsocketCommunicator:
    app = websocket_application(websocket_urls(choose_generator, echo=True))
    communicator = WebsocketCommunicator(app, "/ws/echo/", headers=HEADERS)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_a_question_gets_one_frame_read_as_an_answered_one_sentence_answer():
    communicator = await echo_socket()
    try:
        await communicator.send_to(text_data=json.dumps({"question": "How long does a refund take?"}))
        frame = await communicator.receive_from(timeout=5)
        assert await communicator.receive_nothing(timeout=0.2)  # one frame, nothing after it
    finally:
        await communicator.disconnect()

    read = read_frame(frame)
    assert (read.events.count("sentence") >= 1, read.events[-1], read.status, read.notice) == (
        True, "done", "answered", ""
    )
    assert ECHO_SENTENCE in frame
    assert frame == echo_frame()


async def test_a_malformed_frame_gets_the_chats_notice_and_no_answer():
    communicator = await echo_socket()
    try:
        await communicator.send_to(text_data="not json")
        frame = await communicator.receive_from(timeout=5)
    finally:
        await communicator.disconnect()

    assert read_frame(frame).notice == "The message was not valid JSON."
    assert "data-event=\"done\"" not in frame


async def test_the_echo_answers_behind_the_site_origin_check():
    app = websocket_application(websocket_urls(choose_generator, echo=True))
    communicator = WebsocketCommunicator(app, "/ws/echo/", headers=[(b"origin", b"http://evil.example")])

    connected, _ = await communicator.connect()

    assert not connected
