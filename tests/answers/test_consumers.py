"""The chat websocket: answers as fragments, busy, bad frames, rate limit, origin, cancel, fresh permissions."""
import asyncio
import contextlib
import html
import json
import os
import re
import uuid
from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from answers import consumers, log_writer, services
from answers.consumers import Outbox
from answers.models import Conversation, QuestionLog
from answers.outages import ServiceUnavailable
from answers.routing import websocket_urls
from answers.services import GeneratorFactory
from answers.testing.redis_server import RedisServer, free_port
from answers.testing.scripted import ScriptedGenerator
from corpus_admin.corpus_state import corpus_stamp
from rag_site.asgi import application, websocket_application
from rag_site.sessions import SessionStore

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRASH_Q = "How long are deleted files kept in the trash?"
PARTNER_Q = "What reseller discount do partners receive?"
VAULT_Q = "What is the vault door code?"
SOCKET_CAP_CODE = 4429  # the application's range of close codes: the page's websocket extension does not reconnect


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")
    ingest(
        "partners.md", "# Partners\n\nPartners receive a 20% reseller discount. CANARY-PARTNER-1.\n", audience="partner"
    )


def session_cookie(user=None) -> bytes:
    client = Client()
    if user is not None:
        client.force_login(user)
    else:
        client.session.save()  # an anonymous visitor with a session of their own (as the chat page starts)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(
    cookie: bytes | None = None, origin: bytes = b"http://localhost", *, generator: GeneratorFactory | None = None
) -> WebsocketCommunicator:
    """A chat socket of the site's application, or of one whose chat answers with `generator`."""
    headers = [(b"origin", origin), (b"host", b"localhost")] + ([(b"cookie", cookie)] if cookie else [])
    app = application if generator is None else websocket_application(websocket_urls(generator))
    communicator = WebsocketCommunicator(app, "/ws/chat/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def ask(communicator: WebsocketCommunicator, question: str, timeout: float = 10) -> list[str]:
    """Send a question and collect fragments up to and including the end-of-answer one."""
    await communicator.send_to(text_data=json.dumps({"question": question, "HEADERS": {"HX-Request": "true"}}))
    fragments = []
    while True:
        fragment = await communicator.receive_from(timeout=timeout)
        fragments.append(fragment)
        if 'data-event="done"' in fragment:
            return fragments


def events(fragments: list[str]) -> list[str]:
    """The events of the frames in order (a frame may carry several; one event's elements count once)."""
    kinds = [kind for fragment in fragments for kind in re.findall(r'data-event="([a-z]+)"', fragment)]
    return [kind for i, kind in enumerate(kinds) if i == 0 or kinds[i - 1] != kind]


@pytest.fixture
def slow() -> ScriptedGenerator:
    """Writes one sentence, then holds the stream open until it is cancelled."""
    # The next sentence's first word tells the sentence buffer the first one has ended.
    generator = ScriptedGenerator(["Deleted files are kept in the trash for 30 days [1]. ", "More", asyncio.Event()],
                                  name="slow", regenerates=False)
    return generator


async def test_question_gets_turn_meta_sentence_and_done_fragments(corpus):
    communicator = await connect(await sync_to_async(session_cookie)())

    fragments = await ask(communicator, TRASH_Q)

    assert events(fragments) == ["error", "turn", "meta", "sentence", "done"]  # the first clears any earlier notice
    assert len(fragments) == 3  # the turn; the sources with the sentence; the end
    sentence = next(f for f in fragments if 'data-event="sentence"' in f)
    assert "Deleted files are kept in the trash for 30 days." in sentence
    assert 'href="/chunks/trash-v1-c01/"' in sentence and 'class="cite"' in sentence
    await communicator.disconnect()


async def test_outbox_sends_what_is_ready_together_and_keeps_the_order():
    sent: list[str] = []
    gate = asyncio.Event()

    async def send(frame: str) -> None:
        sent.append(frame)
        await gate.wait()

    outbox = Outbox(send)
    outbox.put("a")
    outbox.put("b")
    await asyncio.sleep(0)  # the first frame leaves; its send is still going on
    outbox.put("c")
    outbox.put("")
    outbox.put("d", ends_frame=True)  # as a sentence does
    outbox.put("e", ends_frame=True)
    outbox.put("f")
    gate.set()
    await outbox.flush()

    assert sent == ["ab", "cd", "e", "f"]


async def test_model_sentences_leave_as_they_are_verified(corpus, slow):
    communicator = await connect(generator=slow)
    await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))

    first = [await communicator.receive_from(timeout=5)]
    while 'data-event="sentence"' not in first[-1]:
        first.append(await communicator.receive_from(timeout=5))

    assert "Deleted files are kept in the trash for 30 days." in first[-1]  # while the generator is still writing
    assert not slow.stopped.is_set()
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ("not json at all", "not valid JSON"),
        ('["question"]', 'with the field "question"'),
        ('{"q": "hi"}', 'with the field "question"'),
        ('{"question": ""}', "is empty"),
        (json.dumps({"question": "x" * 2001}), "the limit is 2000"),
        ("[" * 100_000, "nested too deeply"),
        ('{"question": "hi", "HEADERS": ' + "{\"a\": " * 100_000 + "1" + "}" * 100_001, "nested too deeply"),
    ],
    ids=["not-json", "list", "no-question", "empty", "too-long", "nested-list", "nested-objects"],
)
async def test_bad_frames_get_an_error_fragment_and_the_socket_stays_usable(corpus, frame, message):
    communicator = await connect()

    await communicator.send_to(text_data=frame)
    notice = await communicator.receive_from()

    assert 'data-event="error"' in notice and html.escape(message) in notice
    assert not await sync_to_async(QuestionLog.objects.exists)()
    assert events(await ask(communicator, TRASH_Q))[-1] == "done"
    await communicator.disconnect()


async def test_second_question_while_answering_gets_busy(corpus, slow):
    communicator = await connect(generator=slow)
    await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))
    while 'data-event="sentence"' not in await communicator.receive_from():
        pass

    await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))

    assert "Please wait until the current answer has finished" in await communicator.receive_from()
    await communicator.disconnect()


async def test_closing_the_socket_stops_generation_and_nothing_follows(corpus, slow):
    communicator = await connect(generator=slow)
    await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))
    while 'data-event="sentence"' not in await communicator.receive_from():
        pass

    await communicator.disconnect()
    await asyncio.wait_for(slow.stopped.wait(), timeout=2)  # the held stream was cancelled: it can write no more

    assert await communicator.receive_nothing(timeout=0)  # the application has ended: all it sent is queued
    log = await sync_to_async(QuestionLog.objects.get)()
    assert log.status == "cancelled" and log.channel == "ws"


async def test_rate_limit_counts_per_session_across_sockets(corpus, settings):
    settings.RAG_RATE_LIMIT = 2
    cookie = await sync_to_async(session_cookie)()
    first, second = await connect(cookie), await connect(cookie)
    await ask(first, TRASH_Q)
    await ask(second, TRASH_Q)

    await second.send_to(text_data=json.dumps({"question": TRASH_Q}))
    notice = await second.receive_from()

    assert "asked 2 questions in the last minute" in notice and "try again in" in notice
    other = await connect(await sync_to_async(session_cookie)())
    assert events(await ask(other, TRASH_Q))[-1] == "done"  # another visitor is not limited
    for communicator in (first, second, other):
        await communicator.disconnect()


async def test_a_question_the_limits_refuse_leaves_no_conversation_and_the_answered_ones_keep_theirs(
    corpus, settings
):
    settings.RAG_RATE_LIMIT = 1
    communicator = await connect(await sync_to_async(session_cookie)())
    try:
        await ask(communicator, TRASH_Q)
        await communicator.send_to(text_data=json.dumps({"question": "And how long for folders?"}))
        notice = await communicator.receive_from()
    finally:
        await communicator.disconnect()

    assert "You have asked 1 questions in the last minute" in notice
    titles = await sync_to_async(lambda: [c.title for c in Conversation.objects.all()])()
    assert titles == [TRASH_Q]
    log = await sync_to_async(QuestionLog.objects.get)()
    assert log.conversation_id is not None


async def test_a_question_reads_and_writes_in_one_database_call_before_its_answer_and_one_after(
    corpus, monkeypatch
):
    calls: list[str] = []
    real = consumers.db_call

    def counted(func):
        calls.append(func.__name__)
        return real(func)

    monkeypatch.setattr(consumers, "db_call", counted)
    monkeypatch.setattr(services, "db_call", counted)
    monkeypatch.setattr(log_writer, "db_call", counted)  # the log row (answers/log_writer.py)
    communicator = await connect(await sync_to_async(session_cookie)())
    try:
        calls.clear()  # the socket's opening counts the caller's sockets: not a question's
        await ask(communicator, TRASH_Q)
        await ask(communicator, "And how long for folders?")  # a follow-up on the socket's kept turn
        await communicator.disconnect()
    finally:
        monkeypatch.undo()

    assert calls == ["read", "log_answer", "read", "log_answer"]
    assert await sync_to_async(Conversation.objects.count)() == 2


@pytest.mark.parametrize("pool", [True, False])
async def test_channels_hop_to_close_stale_connections_is_skipped_only_when_database_calls_run_on_the_pool(
    corpus, monkeypatch, pool
):
    hops: list[str] = []

    async def counted() -> None:
        hops.append("close_old_connections")

    monkeypatch.setattr("channels.consumer.aclose_old_connections", counted)
    monkeypatch.setattr(consumers, "side_by_side", lambda: pool)
    communicator = await connect(await sync_to_async(session_cookie)())
    try:
        assert events(await ask(communicator, TRASH_Q))[-1] == "done"
    finally:
        await communicator.disconnect()

    assert len(hops) == (0 if pool else 3)  # the connect, the question, the disconnect


async def test_foreign_origin_is_rejected(corpus):
    headers = [(b"origin", b"http://evil.example"), (b"host", b"localhost")]
    communicator = WebsocketCommunicator(application, "/ws/chat/", headers=headers)

    connected, _ = await communicator.connect()

    assert not connected


async def test_a_caller_over_the_socket_cap_is_told_and_closed_and_a_closed_socket_frees_its_slot(corpus, settings):
    settings.RAG_MAX_SOCKETS_PER_CALLER = 2
    cookie = await sync_to_async(session_cookie)()
    first, second = await connect(cookie), await connect(cookie)

    third = await connect(cookie)  # accepted only to be told why, then closed (the page does not reconnect)
    notice = await third.receive_from()
    closed = await third.receive_output()

    assert "You have 2 chat windows open" in notice and 'data-event="error"' in notice
    assert (closed["type"], closed["code"]) == ("websocket.close", SOCKET_CAP_CODE)
    other = await connect(await sync_to_async(session_cookie)())  # another visitor is not limited
    assert events(await ask(other, TRASH_Q))[-1] == "done"
    await first.disconnect()
    again = await connect(cookie)
    assert events(await ask(again, TRASH_Q))[-1] == "done"
    for communicator in (second, other, again):
        await communicator.disconnect()


async def test_anonymous_sockets_are_capped_per_address_whatever_sessions_they_present(corpus, settings, staff_user):
    # Before, only each session's sockets were capped: one address held 500 open with 25 sessions on the running site.
    settings.RAG_MAX_SOCKETS_PER_CALLER, settings.RAG_MAX_SOCKETS_PER_ADDRESS = 2, 3
    one, other = await sync_to_async(session_cookie)(), await sync_to_async(session_cookie)()
    opened = [await connect(one), await connect(one), await connect(other)]

    fourth = await connect(other)  # within its session's 2, over its address's 3
    notice = await fourth.receive_from()
    closed = await fourth.receive_output()
    signed_in = await connect(await sync_to_async(session_cookie)(staff_user))  # a user is capped as themselves

    assert "3 chat windows are open from your network address" in notice
    assert (closed["type"], closed["code"]) == ("websocket.close", SOCKET_CAP_CODE)
    assert events(await ask(signed_in, TRASH_Q))[-1] == "done"
    await opened[0].disconnect()
    again = await connect(other)
    assert events(await ask(again, TRASH_Q))[-1] == "done"
    for communicator in (*opened[1:], signed_in, again):
        await communicator.disconnect()


async def test_the_address_cap_is_a_counter_of_its_own_not_the_cookieless_callers(corpus, settings):
    settings.RAG_MAX_SOCKETS_PER_CALLER, settings.RAG_MAX_SOCKETS_PER_ADDRESS = 2, 2
    cookie = await sync_to_async(session_cookie)()
    with_sessions = [await connect(cookie), await connect(cookie)]

    without = await connect()  # a cookieless caller is the address itself, with its own 2

    assert events(await ask(without, TRASH_Q))[-1] == "done"
    for communicator in (*with_sessions, without):
        await communicator.disconnect()


async def test_permission_change_between_two_questions_takes_effect(corpus, partner_user):
    communicator = await connect(await sync_to_async(session_cookie)(partner_user))
    assert "20% reseller discount" in "".join(await ask(communicator, PARTNER_Q))

    await sync_to_async(partner_user.groups.remove)(await sync_to_async(Group.objects.get)(name="partners"))
    after = "".join(await ask(communicator, PARTNER_Q))

    assert "20%" not in after and "CANARY" not in after and "partners-v1" not in after
    await communicator.disconnect()


@pytest.fixture
def internal(ingest):
    ingest("vault.md", "# Vault\n\nThe vault door code is CANARY-INTERNAL-7.\n", audience="internal")


def sign_out(cookie: bytes) -> None:
    """Sign out through the site's logout view, with the socket's session cookie, as the header's button does."""
    client = Client()
    client.cookies["sessionid"] = cookie.decode().removeprefix("sessionid=")
    assert client.post(reverse("logout")).status_code == 302


def deactivate(user) -> None:
    user.is_active = False
    user.save()


def change_password(user) -> None:
    user.set_password("a-new-password-456")
    user.save()


@pytest.mark.parametrize("revoke", [sign_out, deactivate, change_password], ids=lambda f: f.__name__)
async def test_the_question_after_a_sign_out_runs_as_an_anonymous_caller(corpus, filler, internal, staff_user, revoke):
    cookie = await sync_to_async(session_cookie)(staff_user)
    communicator = await connect(cookie)
    assert "CANARY-INTERNAL-7" in "".join(await ask(communicator, VAULT_Q))

    await sync_to_async(revoke)(cookie if revoke is sign_out else staff_user)
    after = "".join(await ask(communicator, VAULT_Q))

    assert "CANARY-INTERNAL-7" not in after and "vault-v1" not in after
    assert "status-refused" in after  # answered as the public caller, on the same socket
    await communicator.disconnect()


async def test_each_websocket_question_is_logged(corpus):
    communicator = await connect()

    await ask(communicator, TRASH_Q)
    await communicator.disconnect()

    log = await sync_to_async(QuestionLog.objects.get)()
    assert (log.channel, log.status) == ("ws", "answered")
    assert log.sentences[0]["citations"][0]["chunk_id"] == "trash-v1-c01"


async def test_document_html_reaches_the_socket_escaped(ingest, filler):
    await sync_to_async(ingest)(
        "widget.md", "# Widget\n\nThe widget <script>alert(1)</script> loads in under 300 milliseconds.\n"
    )
    communicator = await connect()

    fragments = "".join(await ask(communicator, "How fast does the widget load?"))

    assert "<script>" not in fragments and "&lt;script&gt;alert(1)&lt;/script&gt;" in fragments
    await communicator.disconnect()


async def test_an_unreachable_service_gets_a_notice_and_the_next_question_is_answered(corpus, monkeypatch, settings):
    from answers.limits import slots

    settings.RAG_RATE_LIMIT = 20  # a question is counted in the shared counters

    class Unreachable:  # the shared counters, down while the question is admitted
        async def admit(self, *args, **kwargs):
            raise ServiceUnavailable()

        count_rate = admit

    communicator = await connect()
    with monkeypatch.context() as patched:
        patched.setattr(slots, "shared_counters", Unreachable)
        await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))
        notice = await communicator.receive_from()

    assert 'data-event="error"' in notice and "cannot answer right now" in notice
    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()


async def test_a_locked_database_while_reading_the_caller_gets_a_notice_and_the_socket_stays(corpus, locked_database):
    from asgiref.sync import sync_to_async

    user = await sync_to_async(User.objects.create_user)("locked-reader")
    communicator = await connect(await sync_to_async(session_cookie)(user))
    with locked_database():
        await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))
        notice = await communicator.receive_from(timeout=10)

    assert 'data-event="error"' in notice and "cannot answer right now" in notice
    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()


async def test_a_service_lost_while_admitting_the_answer_gets_a_notice(corpus, monkeypatch):
    from answers import services

    @contextlib.asynccontextmanager
    async def unreachable(key: str):
        raise ServiceUnavailable("The answer service is unreachable; try again shortly.")
        yield

    communicator = await connect()
    with monkeypatch.context() as patched:
        patched.setattr(services, "admitted", unreachable)
        await communicator.send_to(text_data=json.dumps({"question": TRASH_Q}))
        notice = await communicator.receive_from()

    assert "The answer service is unreachable; try again shortly." in notice
    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()


async def test_the_chat_answers_while_redis_is_down(corpus, settings):
    dead = f"redis://127.0.0.1:{free_port()}/0"
    layer = {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [dead]}}
    settings.CHANNEL_LAYERS = {"default": layer}
    settings.REDIS_URL = dead  # the counters too: the socket cap cannot count, so the socket opens uncounted
    settings.RAG_MAX_SOCKETS_PER_CALLER = 2

    communicator = await connect()

    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A Redis of this test's own on a free port, for the channel layer only, to stop while a socket is open."""
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_the_socket_keeps_answering_after_redis_goes_away(corpus, settings, own_redis):
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [own_redis.url]}}
    }
    communicator = await connect()
    assert events(await ask(communicator, TRASH_Q))[-1] == "done"

    await asyncio.to_thread(own_redis.stop)

    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()


async def test_chat_answers_with_the_redis_channel_layer_configured(corpus, settings):
    from channels.layers import get_channel_layer

    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [url]}}
    }
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "ping", "text": "over redis"})

    assert type(layer).__name__ == "RedisChannelLayer"
    assert (await asyncio.wait_for(layer.receive(channel), 5))["text"] == "over redis"
    communicator = await connect()
    assert events(await ask(communicator, TRASH_Q))[-2:] == ["sentence", "done"]
    await communicator.disconnect()
    await layer.flush()


@pytest.fixture
def refund_corpus(ingest, filler):
    ingest("refunds.md", "# Refunds\n\nRefunds take 5 business days.\n\nRefunds for digital goods take 10 days.\n")


async def test_a_follow_up_is_answered_within_the_sockets_earlier_turn(refund_corpus):
    communicator = await connect()
    try:
        first = "".join(await ask(communicator, "How long do refunds take?"))
        follow_up = "".join(await ask(communicator, "and for digital goods?"))
    finally:
        await communicator.disconnect()

    assert 'data-event="resolved"' not in first
    kinds = events([follow_up])
    assert kinds[kinds.index("turn") :][:3] == ["turn", "resolved", "meta"]
    assert "Answering: <q>How long do refunds take for digital goods?</q>" in follow_up
    assert "Refunds for digital goods take 10 days." in html.unescape(follow_up)


async def test_another_socket_has_no_history_and_a_follow_up_there_is_asked_as_it_is(refund_corpus):
    first = await connect()
    try:
        await ask(first, "How long do refunds take?")
    finally:
        await first.disconnect()
    second = await connect()
    try:
        follow_up = "".join(await ask(second, "and for digital goods?"))
    finally:
        await second.disconnect()

    assert 'data-event="resolved"' not in follow_up


async def test_a_sign_out_on_the_socket_forgets_the_turns_the_signed_in_caller_was_cited(refund_corpus, staff_user):
    cookie = await sync_to_async(session_cookie)(staff_user)
    communicator = await connect(cookie)
    try:
        await ask(communicator, "How long do refunds take?")
        await sync_to_async(sign_out)(cookie)
        follow_up = "".join(await ask(communicator, "and for digital goods?"))
    finally:
        await communicator.disconnect()

    assert 'data-event="resolved"' not in follow_up
async def test_a_signed_in_askers_end_of_answer_frame_carries_the_rating_form_of_that_answer(corpus, plain_user):
    communicator = await connect(await sync_to_async(session_cookie)(plain_user))

    fragments = await ask(communicator, TRASH_Q)
    await communicator.disconnect()

    done = fragments[-1]
    log = await sync_to_async(QuestionLog.objects.get)()
    assert 'class="rating"' in done and f'data-url="/api/answers/{log.answer_key}/rating"' in done
    assert done.index('data-event="done"') < done.index('class="rating"')  # under the end marker, in its frame
    assert ">Helpful</button>" in done and ">Not helpful</button>" in done


async def test_an_anonymous_asker_without_a_session_is_offered_no_rating(corpus):
    communicator = await connect()

    fragments = await ask(communicator, TRASH_Q)
    await communicator.disconnect()

    assert 'class="rating"' not in "".join(fragments)


async def ask_in(communicator: WebsocketCommunicator, question: str, conversation: object) -> list[str]:
    """Send a question naming a conversation, as the page's form does; the fragments up to the end of the answer
    (or the one notice that refuses it)."""
    frame = {"question": question, "conversation": conversation, "HEADERS": {"HX-Request": "true"}}
    await communicator.send_to(text_data=json.dumps(frame))
    fragments = []
    while True:
        fragment = await communicator.receive_from(timeout=10)
        fragments.append(fragment)
        refused = 'id="notice"' in fragment and 'data-event="turn"' not in fragment
        if 'data-event="done"' in fragment or refused:
            return fragments


async def test_a_new_conversation_is_named_in_the_first_frame_and_a_follow_up_in_it_uses_its_stored_turns(
    refund_corpus, plain_user
):
    communicator = await connect(await sync_to_async(session_cookie)(plain_user))
    try:
        first = await ask_in(communicator, "How long do refunds take?", "")
        conversation = await sync_to_async(Conversation.objects.get)()
        await communicator.disconnect()
        communicator = await connect(await sync_to_async(session_cookie)(plain_user))  # another socket: no memory
        follow_up = "".join(await ask_in(communicator, "and for digital goods?", str(conversation.key)))
    finally:
        await communicator.disconnect()

    assert f'id="conversation-key" value="{conversation.key}"' in first[0]
    assert f"?c={conversation.key}" in first[0] and "How long do refunds take?</a>" in first[0]
    assert "Answering: <q>How long do refunds take for digital goods?</q>" in follow_up
    assert f"?c={conversation.key}" not in follow_up  # not listed twice
    assert 'class="permalink"' in follow_up


async def test_a_frame_naming_someone_elses_conversation_gets_the_notice_of_a_missing_one(
    refund_corpus, plain_user, partner_user
):
    owner = await connect(await sync_to_async(session_cookie)(plain_user))
    await ask_in(owner, "How long do refunds take?", None)
    await owner.disconnect()
    conversation = await sync_to_async(Conversation.objects.get)()
    other = await connect(await sync_to_async(session_cookie)(partner_user))
    try:
        theirs = await ask_in(other, "and for digital goods?", str(conversation.key))
        missing = await ask_in(other, "and for digital goods?", str(uuid.uuid4()))
        malformed = await ask_in(other, "and for digital goods?", 12)
    finally:
        await other.disconnect()

    assert theirs == missing and "No such conversation." in theirs[0]
    assert '"conversation" must be a conversation id' in html.unescape(malformed[0])
    assert await sync_to_async(QuestionLog.objects.count)() == 1


async def test_a_partner_who_leaves_the_group_is_no_longer_resolved_against_the_partner_answer(
    corpus, partner_user, monkeypatch
):
    histories = []
    real_ask = consumers.ask

    async def recording_ask(**kwargs):
        histories.append(kwargs["history"])
        return await real_ask(**kwargs)

    monkeypatch.setattr(consumers, "ask", recording_ask)
    communicator = await connect(await sync_to_async(session_cookie)(partner_user))
    try:
        assert "20% reseller discount" in "".join(await ask(communicator, PARTNER_Q))
        await ask(communicator, "and for resellers abroad?")
        (kept,) = histories[-1]
        assert kept.answer_sentences and "CANARY-PARTNER-1" in " ".join(kept.cited_texts)  # still a partner: kept

        await sync_to_async(partner_user.groups.remove)(await sync_to_async(Group.objects.get)(name="partners"))
        after = "".join(await ask(communicator, "and what about it?"))
    finally:
        await communicator.disconnect()

    first, second = histories[-1]
    assert first.question == PARTNER_Q and first.answer_sentences == () and first.cited_texts == ()
    assert "CANARY" not in " ".join((*second.answer_sentences, *second.cited_texts)) and "CANARY" not in after


@pytest.fixture
def quotes_corpus(refund_corpus, ingest):
    ingest("quotes.md", "# Quotes\n\nEnterprise quotes are prepared by the deal desk.\n", audience="partner")


async def test_a_sockets_follow_up_is_not_resolved_from_a_standalone_form_made_from_a_passage_no_longer_seen(
    quotes_corpus, partner_user
):
    communicator = await connect(await sync_to_async(session_cookie)(partner_user))
    try:
        assert "deal desk" in "".join(await ask(communicator, "Who prepares Enterprise quotes?"))
        resolved = "".join(await ask(communicator, "how long are they valid?"))
        assert "Answering: <q>" in resolved and "deal desk" in resolved  # still a partner: resolved with its words

        await sync_to_async(partner_user.groups.remove)(await sync_to_async(Group.objects.get)(name="partners"))
        after = "".join(await ask(communicator, "and for resellers abroad?"))
    finally:
        await communicator.disconnect()

    assert "deal desk" not in after
    logged = await sync_to_async(QuestionLog.objects.order_by("-id").first)()
    assert "deal desk" not in logged.question and "deal desk" not in str(logged.diagnostics)


async def test_a_questions_session_read_brings_the_corpus_stamp_in_the_same_statement(corpus):
    def read():
        store = SessionStore()
        store.save()
        with CaptureQueriesContext(connection) as queries:
            found = consumers._session_user_and_stamp(store.session_key)
        return store.session_key, found, len(queries.captured_queries), corpus_stamp()

    key, (user, found_key, stamp), statements, now = await sync_to_async(read)()

    assert (user.is_authenticated, found_key, stamp, statements) == (False, key, now, 1)
