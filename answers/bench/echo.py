"""The stack's own ceiling for the load test: a websocket consumer that answers each question frame with the frames a
one-sentence answer is delivered in.

Mounted at `ws/echo/` only when `RAG_LOADTEST_ECHO` is on (answers/routing.py), behind the same origin check,
session middleware and (absent) channel layer as the chat. It does what the chat does with a frame, short of
answering: it parses the JSON and pushes a one-sentence answer's fragments in the chat's three frames (the notice,
the conversation field and the turn; the sources with the sentence and its citation; the end marker with the
answer's links and rating form: answers/consumers.py's Outbox), rendered once through the real fragment renderers.
No database, no limits, no retrieval, no generation: what it sustains is what daphne, channels and the middleware
allow for delivering an answer, the bound any real answer is measured against (`manage.py loadtest` reports
answers per second as a share of it). Until 2026-12-01 it sent one frame per question where an answer sends three,
so its rate counted a third of an answer's websocket sends (README, "Load as a share of the stack's ceiling").
"""
import datetime as dt
import functools
import uuid

from channels.generic.websocket import AsyncWebsocketConsumer

from answers.consumers import parse_frame
from answers.models import Conversation
from answers.pipeline.events import AnswerDone, BlocksIssued, ChunkRef, SentenceVerified
from answers.present.fragments import render_event, render_notice, render_turn
from answers.present.links import render_answer_links, render_conversation
from answers.present.rating import render_rating
from answers.services import QuestionRejected

ECHO_TURN = "echo00000000"
ECHO_QUESTION = "How long does a refund take to process?"
ECHO_SENTENCE = "Refunds are processed within 5 business days. [1]"
ECHO_CITATION = ChunkRef(
    n=1, chunk_id="refund-policy-c01", source_title="Refund policy", updated_on=dt.date(2026, 1, 1)
)
ECHO_KEY = uuid.UUID(int=0)  # the conversation and answer the echo names (never stored)


@functools.cache
def echo_frames() -> tuple[str, str, str]:
    """The three frames every question gets, as the chat sends a one-sentence answer; rendered the first time only."""
    conversation = Conversation(key=ECHO_KEY, title=ECHO_QUESTION)  # never saved: only its key and title are shown
    return (
        render_notice("") + render_conversation(conversation, new=True) + render_turn(ECHO_TURN, ECHO_QUESTION),
        render_event(ECHO_TURN, BlocksIssued(blocks=(ECHO_CITATION,), context_tokens=12))
        + render_event(ECHO_TURN, SentenceVerified(text=ECHO_SENTENCE, citations=(ECHO_CITATION,))),
        render_event(ECHO_TURN, AnswerDone(status="answered", generator="extractive"))
        + render_answer_links(ECHO_TURN, ECHO_KEY) + render_rating(ECHO_TURN, ECHO_KEY),
    )


class EchoConsumer(AsyncWebsocketConsumer):
    """Answers every question frame with `echo_frames()`, a malformed one with the chat's notice."""

    channel_layer_alias = None  # as the chat's: nothing is sent to it through a layer

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            parse_frame(text_data)
        except QuestionRejected as error:
            await self.send(render_notice(str(error)))
            return
        for frame in echo_frames():
            await self.send(frame)
