"""The stack's ceiling: the echo socket answers each question frame with the three frames of a one-sentence answer."""
import json

import pytest
from channels.testing import WebsocketCommunicator

from answers.bench.echo import ECHO_SENTENCE, echo_frames
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


async def test_a_question_gets_the_three_frames_of_an_answered_one_sentence_answer():
    communicator = await echo_socket()
    try:
        await communicator.send_to(text_data=json.dumps({"question": "How long does a refund take?"}))
        frames = [await communicator.receive_from(timeout=5) for _ in range(3)]
        assert await communicator.receive_nothing(timeout=0.2)  # three frames, nothing after them
    finally:
        await communicator.disconnect()

    turn, sentence, done = (read_frame(frame) for frame in frames)
    assert (turn.events, turn.notice) == (("turn",), "")  # the chat's first frame: the question, shown at once
    assert (sentence.events[0], "sentence" in sentence.events, sentence.status) == ("meta", True, "")
    assert (done.events[0], done.status) == ("done", "answered")
    assert ECHO_SENTENCE in frames[1] and 'class="rating"' in frames[2] and 'class="permalink"' in frames[2]
    assert tuple(frames) == echo_frames()


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
