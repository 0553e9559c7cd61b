"""The chat websocket: parse a frame, call the answer service, push each event as an HTML fragment."""
import asyncio
import contextlib
import json
import logging
import uuid

from channels.auth import get_user
from channels.generic.websocket import AsyncWebsocketConsumer

from answers.models import QuestionLog
from answers.pipeline.events import AnswerDone
from answers.limits import QuestionRefused, answering, caller_key, rate_limit_hit
from answers.rendering import render_event, render_notice, render_turn
from answers.services import QuestionRejected, answer_question, clean_question

logger = logging.getLogger(__name__)

BUSY_MESSAGE = "Please wait until the current answer has finished before asking another question."
FAILED_MESSAGE = "Something went wrong while answering; please try again."


def parse_frame(text: str | None) -> str:
    """The question of a frame the page's form sends: a JSON object with the field "question"."""
    if text is None:
        raise QuestionRejected("Send questions as text frames holding a JSON object.")
    try:
        frame = json.loads(text)
    except json.JSONDecodeError:
        raise QuestionRejected("The message was not valid JSON.") from None
    if not isinstance(frame, dict) or "question" not in frame:
        raise QuestionRejected('The message must be a JSON object with the field "question".')
    return clean_question(frame["question"])


class ChatConsumer(AsyncWebsocketConsumer):
    """One socket, one question at a time; closing the socket stops the answer being written."""

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.busy = False  # from a question until its end marker is sent (the log is written after that)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            question = parse_frame(text_data)
        except QuestionRejected as error:
            await self.send(render_notice(str(error)))
            return
        if self.busy:
            await self.send(render_notice(BUSY_MESSAGE))
            return
        # Read the caller from the session again: sign-outs and permission changes count from this question on.
        user = await get_user(self.scope)
        session = self.scope.get("session")
        client = (self.scope.get("client") or [None])[0]
        key = caller_key(
            user_id=user.pk if user.is_authenticated else None,
            session_key=session.session_key if session is not None else None,
            client=client,
        )
        decision = await rate_limit_hit(key)
        if not decision.allowed:
            await self.send(render_notice(decision.message))
            return
        await self.send(render_notice(""))
        self.busy = True
        task = asyncio.create_task(self._answer(question, user, session.session_key if session else "", key))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _answer(self, question: str, user, session_key: str | None, key: str) -> None:
        try:
            async with answering(key):
                turn = uuid.uuid4().hex[:12]
                await self.send(render_turn(turn, question))
                async for event in answer_question(
                    question=question, user=user, channel=QuestionLog.Channel.WEBSOCKET, session_key=session_key or ""
                ):
                    fragment = render_event(turn, event)
                    if fragment:
                        await self.send(fragment)
                    if isinstance(event, AnswerDone):
                        self.busy = False
        except QuestionRefused as refused:
            await self.send(render_notice(refused.message))
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Answering over the websocket failed")
            await self.send(render_notice(FAILED_MESSAGE))
        finally:
            self.busy = False
