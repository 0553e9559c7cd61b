"""The chat websocket: parse a frame, call the answer service, push each event as an HTML fragment."""
import asyncio
import contextlib
import json
import logging
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from importlib import import_module
from types import SimpleNamespace

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from answers.conversations import (
    NOT_FOUND,
    ConversationIdRejected,
    ConversationNotFound,
    KeptTurn,
    can_keep,
    conversation_get,
    history_seen_now,
    kept_turn,
    parse_conversation_key,
    visible_to,
)
from answers.dbcalls import db_call, side_by_side
from answers.limits.slots import QuestionRefused
from answers.limits.sockets import TooManySockets, socket_closed, socket_opened
from answers.models import QuestionLog
from answers.outages import ServiceUnavailable, database_available
from answers.pipeline.events import AnswerDone, SentenceVerified
from answers.pipeline.followups import Turn
from answers.present.fragments import render_event, render_notice, render_turn
from answers.present.links import render_answer_links, render_conversation
from answers.present.lists import ENDS_HELD_ITEMS, ListPlacer
from answers.present.rating import render_rating
from answers.random_keys import random_uuid
from answers.ratings import can_rate
from answers.services import (
    MAX_HISTORY,
    Admission,
    AnswerStream,
    Caller,
    GeneratorFactory,
    QuestionRejected,
    admission_reads,
    ask,
    clean_question,
    turn_from,
)
from corpus_admin.corpus_state import Stamp, stamp_columns, stamp_from, stamp_read_already
from rag_site import sessions

logger = logging.getLogger(__name__)

BUSY_MESSAGE = "Please wait until the current answer has finished before asking another question."
FAILED_MESSAGE = "Something went wrong while answering; please try again."
SOCKET_CAP_CODE = 4429  # the page's websocket extension reconnects after 1006 and 1011-1013 only, not after this
UNKNOWN_PATH_CODE = 4404  # a websocket close code of the application's range (4000-4999), read as HTTP's 404


def parse_frame(text: str | None) -> tuple[object, uuid.UUID | None]:
    """The question of a frame the page's form sends (a JSON object with the field "question", cleaned by the
    answer service) and the conversation it names (the optional field "conversation": a conversation id, or empty
    or null for a new one)."""
    if text is None:
        raise QuestionRejected("Send questions as text frames holding a JSON object.")
    try:
        frame = json.loads(text)
    except json.JSONDecodeError:
        raise QuestionRejected("The message was not valid JSON.") from None
    except RecursionError:  # the decoder recurses per [ or {: a frame of 100,000 of them is valid-looking JSON
        raise QuestionRejected("The message is nested too deeply.") from None
    if not isinstance(frame, dict) or "question" not in frame:
        raise QuestionRejected('The message must be a JSON object with the field "question".')
    try:
        conversation = parse_conversation_key(frame.get("conversation"))
    except ConversationIdRejected as error:
        raise QuestionRejected(str(error)) from None
    return frame["question"], conversation


async def current_caller(scope: dict) -> tuple[AbstractBaseUser | AnonymousUser, str | None]:
    """The user and session key of the socket's session as the session store holds it now, not as at connect.

    Channels loads the session once, at connect; a sign-out elsewhere deletes it from the store, so a fresh load
    sees it gone. get_user then checks the user as Django does for HTTP: the backend's user_can_authenticate
    (a deactivated user) and the session's auth hash (a changed password).
    """
    session_key = scope["session"].session_key if "session" in scope else None
    if session_key is None:  # no session, so nobody signed in: nothing to read (a thread hop saved per question)
        return AnonymousUser(), None
    with database_available():  # a locked or unreachable database: ServiceUnavailable, as over HTTP
        return await db_call(_session_user)(session_key)


def _session_user(session_key: str) -> tuple[AbstractBaseUser | AnonymousUser, str | None]:
    """The user of the stored session with that key, checked as Django's own `auth.get_user` checks a request's,
    and the session's key after the check (None when it was flushed)."""
    user, key, _ = _session_user_and_stamp(session_key, with_stamp=False)
    return user, key


def _session_user_and_stamp(
    session_key: str, *, with_stamp: bool = True,
) -> tuple[AbstractBaseUser | AnonymousUser, str | None, Stamp | None]:
    """`_session_user`, and the corpus stamp read in the session's own statement (rag_site/sessions.py; None when
    no statement ran, or with another session engine: then the question reads it as before)."""
    engine = import_module(settings.SESSION_ENGINE).SessionStore
    together = with_stamp and issubclass(engine, sessions.SessionStore)
    session = engine(session_key, read_with=stamp_columns()) if together else engine(session_key)
    user = auth.get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]
    values = session.read_with_values if together else ()
    return user, session.session_key, stamp_from(*values) if values else None


class Outbox:
    """Fragments out as frames: whatever is ready when the socket is next free goes in one frame, in order.

    A fragment is never held back waiting for another: frames leave as soon as the answer's task yields. The turn
    and each verified sentence end their frames, so the page shows the question at once and appends sentences one
    by one even when they were all ready at once (an extractive answer: the turn, then the sources with the first
    sentence, each further sentence, the end). The
    page's websocket extension swaps every element of a frame by its `hx-swap-oob`.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]]) -> None:
        self._send = send
        self._frames: list[list[str]] = [[]]
        self._sending: asyncio.Task | None = None

    def put(self, fragment: str, *, ends_frame: bool = False) -> None:
        """Queue a fragment for the next frame; `ends_frame` sends what follows in a frame of its own."""
        if not fragment:
            return
        self._frames[-1].append(fragment)
        if ends_frame:
            self._frames.append([])
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._drain())

    async def flush(self) -> None:
        """Wait until every queued fragment has been sent."""
        while self._sending is not None and not self._sending.done():
            await self._sending
        if self._sending is not None:
            self._sending.result()  # a failed send surfaces here

    def cancel(self) -> None:
        """Drop what is queued (the socket is closing)."""
        self._frames = [[]]
        if self._sending is not None:
            self._sending.cancel()

    async def _drain(self) -> None:
        while self._frames[0]:
            frame = self._frames.pop(0)
            if not self._frames:
                self._frames.append([])
            await self._send("".join(frame))


class ChatConsumer(AsyncWebsocketConsumer):
    """One socket, one question at a time; closing the socket stops the answer being written.

    `ChatConsumer.as_asgi(make_generator=...)` names the factory of each answer's generator (the routing wires the
    site's).
    """

    # Nothing is ever sent to a chat socket through the channel layer (no groups, no other sender). With a layer,
    # every socket would also wait on it, and a Redis that goes away would end each socket with 1011.
    channel_layer_alias = None

    def __init__(self, *, make_generator: GeneratorFactory) -> None:
        super().__init__()
        self.make_generator = make_generator

    async def dispatch(self, message: dict) -> None:
        """Channels' dispatch, without its thread hop before every message (a question, a connect, a disconnect) to
        close the thread-sensitive thread's stale connections, when this socket's database calls run on the pool
        (answers/dbcalls.py): each of those closes its own connection, and nothing here uses that thread's. Where
        calls do run on that thread (SQLite, RAG_DB_THREADS 0), channels' dispatch as it is."""
        if not side_by_side():
            return await super().dispatch(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        return await handler(message)

    async def connect(self) -> None:
        self.tasks: set[asyncio.Task] = set()
        self.busy = False  # from a question until its end marker is sent (its log row is stored before that)
        self.socket_slots: tuple[str, ...] = ()
        # This socket's last answered turns, what a follow-up outside a stored conversation is resolved against
        # (§6a); they live as long as it, and only for the caller who asked them (a sign-in or sign-out on the socket
        # starts afresh: the turns hold the passages that caller was cited), re-read with the caller's visibility at
        # each question (a partner who left the group is no longer resolved against partner passages).
        self.history: deque[KeptTurn] = deque(maxlen=MAX_HISTORY)
        self.history_of = ""
        try:
            self.socket_slots = await socket_opened(await self._caller_key())
        except ServiceUnavailable:
            pass  # opened uncounted: while the database is down every question gets the notice anyway
        except TooManySockets as refused:
            await self.accept()  # refused at the handshake, the page would only see a failure and retry
            await self.send(render_notice(refused.message))
            await self.close(code=SOCKET_CAP_CODE)
            return
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            if self.busy:  # an answer still being written stops; a delivered one only finishes its log row (awaited)
                task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        slots, self.socket_slots = self.socket_slots, ()
        await socket_closed(slots)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            question, conversation_key = parse_frame(text_data)
        except QuestionRejected as error:
            await self.send(render_notice(str(error)))
            return
        if self.busy:
            await self.send(render_notice(BUSY_MESSAGE))
            return
        # The caller as the session store holds them now: sign-outs and permission changes count from this question on.
        try:
            caller, history, admission = await self._caller_now(clean_question(question), conversation_key)
            if caller.key != self.history_of:
                self.history.clear()
                self.history_of = caller.key
            stream = await ask(caller=caller, question=question, channel=QuestionLog.Channel.WEBSOCKET,
                               make_generator=self.make_generator, history=history, admission=admission)
        except ConversationNotFound:
            await self.send(render_notice(NOT_FOUND))
            return
        except QuestionRejected as rejected:
            await self.send(render_notice(str(rejected)))
            return
        except (QuestionRefused, ServiceUnavailable) as refused:
            await self.send(render_notice(refused.message))
            return
        self.busy = True
        answering = self._answer(stream, rateable=can_rate(caller), new_conversation=admission.started)
        task = asyncio.create_task(answering)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _caller_now(
        self, question: str, conversation_key: uuid.UUID | None,
    ) -> tuple[Caller, tuple[Turn, ...], Admission]:
        """In one database call, all a question reads and writes before its answer: the caller as the session store
        holds them now, the stored conversation the question names (or ConversationNotFound: missing or not theirs)
        with its last turns, or when it names none the socket's kept turns as the caller may see them now, and
        what `ask` reads for its admission (the caller's audiences and retriever; a new conversation when one is
        kept). The limits count the question after it (`ask` discards a conversation started for a refused one)."""
        session_key = self.scope["session"].session_key if "session" in self.scope else None
        kept, kept_of, address = tuple(self.history), self.history_of, self._address()

        def read() -> tuple[Caller, tuple[Turn, ...], Admission]:
            with database_available():  # a locked or unreachable database: ServiceUnavailable, as over HTTP
                user, key, stamp = (_session_user_and_stamp(session_key) if session_key is not None
                                    else (AnonymousUser(), None, None))
                caller = Caller(user, key or "", address)
                with stamp_read_already(stamp) if stamp is not None else contextlib.nullcontext():
                    conversation = None
                    if conversation_key is not None:  # a stored conversation gives the history (admission_reads)
                        conversation = conversation_get(caller=caller, key=conversation_key)
                    admission = admission_reads(caller, question, None, conversation, can_keep(caller))
                if conversation is not None or not kept or caller.key != kept_of:  # signed in or out: afresh
                    return caller, (), admission
                seen = history_seen_now(kept, audiences=admission.prepared.audiences,
                                        visible=visible_to(admission.prepared.retriever))
                return caller, seen, admission

        return await db_call(read)()

    async def _caller_key(self) -> str:
        user, session_key = await current_caller(self.scope)
        return Caller(user, session_key or "", self._address()).key

    def _address(self) -> str | None:
        return (self.scope.get("client") or [None])[0]

    async def _answer(self, stream: AnswerStream, *, rateable: bool = False, new_conversation: bool = False) -> None:
        outbox = Outbox(lambda frame: self.send(frame))
        try:
            turn = random_uuid().hex[:12]
            outbox.put(render_notice(""))  # clears an earlier notice
            if stream.conversation is not None:  # the next question is asked in it; a new one tops the side panel
                outbox.put(render_conversation(stream.conversation, new=new_conversation))
            outbox.put(render_turn(turn, stream.summary.question), ends_frame=True)  # the question shows at once
            shown = 0  # sentences shown so far: each one's place keeps its quotes' ids apart
            lists = ListPlacer()  # which of them stand in a list, and where
            async for event in stream:
                # A list item sentence may wait for the next one: a list needs two items (present/lists.py).
                if isinstance(event, SentenceVerified):
                    shown += 1
                    ready = lists.add(event, shown)
                else:
                    ready = lists.flush() if isinstance(event, ENDS_HELD_ITEMS) else []
                for sentence, at, placement in ready:
                    outbox.put(render_event(turn, sentence, position=at, placement=placement), ends_frame=True)
                if not isinstance(event, SentenceVerified):
                    outbox.put(render_event(turn, event, position=shown))
                if isinstance(event, AnswerDone):
                    earlier = self.history[-1] if self.history else None
                    self.history.append(kept_turn(turn_from(stream.summary), stream.summary, earlier))
                    if event.status != "failed":  # in the end marker's frame: named by its answer key
                        outbox.put(render_answer_links(turn, stream.answer_key))
                        if rateable:
                            outbox.put(render_rating(turn, stream.answer_key))
                    await outbox.flush()  # the end marker is out before another question is taken
                    self.busy = False
            await outbox.flush()
        except asyncio.CancelledError:
            outbox.cancel()
            raise
        except Exception:
            logger.exception("Answering over the websocket failed")
            outbox.put(render_notice(FAILED_MESSAGE))
            await outbox.flush()
        finally:
            self.busy = False


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Every websocket path but the chat's: refused at the handshake, as a 404 page is, with nothing logged."""

    channel_layer_alias = None  # nothing is ever sent to it

    async def connect(self) -> None:
        await self.close(code=UNKNOWN_PATH_CODE)
