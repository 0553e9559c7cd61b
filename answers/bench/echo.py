"""The stack's own ceiling for the load test: a websocket consumer that answers each question frame with one frame.

Mounted at `ws/echo/` only when `RAG_LOADTEST_ECHO` is on (answers/routing.py), behind the same origin check,
session middleware and (absent) channel layer as the chat. It does what the chat does with a frame, short of
answering: it parses the JSON and pushes the fragments a one-sentence answer ends with (the turn, the sentence
with its citation, the end marker), rendered once through the real fragment renderers. No database, no limits, no
retrieval, no generation: what it sustains is what daphne, channels and the middleware allow, the bound any
real answer is measured against (`manage.py loadtest` reports answers per second as a share of it).
"""
import datetime as dt
import functools

from channels.generic.websocket import AsyncWebsocketConsumer

from answers.consumers import parse_frame
from answers.pipeline.events import AnswerDone, ChunkRef, SentenceVerified
from answers.present.fragments import render_event, render_notice, render_turn
from answers.services import QuestionRejected

ECHO_TURN = "echo00000000"
ECHO_SENTENCE = "Refunds are processed within 5 business days. [1]"
ECHO_CITATION = ChunkRef(
    n=1, chunk_id="refund-policy-c01", source_title="Refund policy", updated_on=dt.date(2026, 1, 1)
)


@functools.cache
def echo_frame() -> str:
    """The one frame every question gets: a one-sentence answer's fragments, rendered the first time only."""
    return "".join(
        [
            render_notice(""),
            render_turn(ECHO_TURN, "echo"),
            render_event(ECHO_TURN, SentenceVerified(text=ECHO_SENTENCE, citations=(ECHO_CITATION,))),
            render_event(ECHO_TURN, AnswerDone(status="answered", generator="extractive")),
        ]
    )


class EchoConsumer(AsyncWebsocketConsumer):
    """Answers every question frame with `echo_frame()`, a malformed one with the chat's notice."""

    channel_layer_alias = None  # as the chat's: nothing is sent to it through a layer

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            parse_frame(text_data)
        except QuestionRejected as error:
            await self.send(render_notice(str(error)))
            return
        await self.send(echo_frame())
