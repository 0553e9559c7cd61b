"""/api/answer: the §6 JSON object, its 400s, CSRF for session callers, and visibility."""
import json
import random
import time

import pytest
from asgiref.sync import async_to_sync
from django.contrib.sessions.backends.db import SessionStore

from answers.limits.rates import WINDOW_S
from answers.models import QuestionLog

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")
    ingest("pricing.md", "# Pricing\n\nThe Team plan costs $12 per user per month.\n")
    ingest(
        "partners.md", "# Partners\n\nPartners receive a 20% reseller discount. CANARY-PARTNER-1.\n", audience="partner"
    )
    ingest(
        "floor.md", "# Floor\n\nThe internal price floor for Business is $19. CANARY-INTERNAL-1.\n", audience="internal"
    )


def post(client, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post("/api/answer", data=data, content_type="application/json", **extra)


def test_answer_has_the_documented_fields(client, small_corpus):
    response = post(client, {"question": "How long are deleted files kept in the trash?"})

    data = response.json()
    assert response.status_code == 200
    assert data["status"] == "answered" and data["refused"] is False and data["refusal"] is None
    assert data["answer"] == "Deleted files are kept in the trash for 30 days."
    citation = data["sentences"][0]["citations"][0]
    assert citation["chunk_id"] == "trash-v1-c01" and citation["url"] == "/chunks/trash-v1-c01/"
    assert data["citations"] == ["trash-v1-c01"]
    assert data["retrieved"][0]["id"] == "trash-v1-c01" and data["retrieved"][0]["score"] > 0
    assert "dropped" not in data


def test_off_topic_question_is_refused_as_no_material(client, small_corpus):
    data = post(client, {"question": "What is the capital of France?"}).json()

    assert data["status"] == "refused" and data["refusal"]["kind"] == "no_material"
    assert data["answer"] == ""


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ({}, '"question" is missing'),
        ({"question": 42}, "must be a string"),
        ({"question": "   "}, "is empty"),
        ({"question": "x" * 2001}, "2001 characters long; the limit is 2000"),
        ("[" * 100_000, "nested too deeply"),
        ('{"question": "ok", "extra": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ],
    ids=["not-json", "not-object", "missing", "not-string", "empty", "too-long", "deep-brackets", "deep-field"],
)
def test_bad_requests_get_400_with_a_json_error(client, body, message):
    response = post(client, body)

    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not QuestionLog.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"question": "How long are files kept?\\ud800"}', "U+D800 at character 25, a lone surrogate"),
        ('{"question": "\\udfff"}', "U+DFFF at character 1, a lone surrogate"),
        ('{"question": "How long\\u0000 are files kept?"}', "a NUL character (U+0000) at character 9"),
    ],
    ids=["high-surrogate", "low-surrogate", "nul"],
)
def test_text_that_is_not_unicode_text_gets_400_and_never_reaches_the_pipeline(client, monkeypatch, body, message):
    def never(*args, **kwargs):
        raise AssertionError("the question reached the pipeline")

    monkeypatch.setattr("answers.services.answer_events", never)

    response = post(client, body)

    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not QuestionLog.objects.exists()


def test_get_is_not_allowed(client):
    assert client.get("/api/answer").status_code == 405


def test_signed_in_session_caller_must_send_csrf_token(small_corpus, staff_user):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(staff_user)

    response = post(client, {"question": "How long are deleted files kept in the trash?"})

    assert response.status_code == 403 and "CSRF" in response.json()["error"]


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_question_in_a_link_from_another_site_is_not_asked_as_the_signed_in_caller(small_corpus, plain_user, site):
    # A page elsewhere can send its visitor to /api/answer/stream?question=...: a top-level navigation carries the
    # session cookie (SameSite=Lax), so without this check the question landed in the victim's conversations.
    from django.test import Client

    from answers.models import Conversation

    client = Client()
    client.force_login(plain_user)

    response = client.get("/api/answer/stream", {"question": "URGENT: your account is locked, call 555-0100"},
                          headers={"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"})

    assert response.status_code == 403 and "another site" in response.json()["error"]
    assert not Conversation.objects.exists() and not QuestionLog.objects.exists()


@pytest.mark.parametrize("header", ["Referer", "Origin"])
def test_a_link_from_another_site_in_a_browser_without_fetch_metadata_is_refused_too(small_corpus, plain_user, header):
    # Browsers before Fetch Metadata (Safari before 16.4) send no Sec-Fetch-Site; the page that sent them still shows
    # in Referer (or Origin), and another host there is the same attack as a cross-site navigation.
    from django.test import Client

    from answers.models import Conversation

    client = Client()
    client.force_login(plain_user)

    response = client.get("/api/answer/stream", {"question": "URGENT: your account is locked, call 555-0100"},
                          headers={header: "https://evil.example/lure.html"})

    assert response.status_code == 403 and "another site" in response.json()["error"]
    assert not Conversation.objects.exists() and not QuestionLog.objects.exists()


@pytest.mark.parametrize("referer", ["http://testserver/", "http://testserver/chat/?c=abc", "not a url"])
def test_a_browser_without_fetch_metadata_asking_from_the_site_itself_is_answered(small_corpus, plain_user, referer):
    from django.test import Client

    client = Client()
    client.force_login(plain_user)

    response = client.get("/api/answer/stream", {"question": "How long are deleted files kept in the trash?"},
                          headers={"Referer": referer})

    assert response.status_code == 200 and "30 days" in streamed(response)


@pytest.mark.parametrize("site", ["same-origin", "none", None])
def test_a_question_asked_from_the_site_itself_or_typed_or_by_a_program_is_answered(small_corpus, plain_user, site):
    from django.test import Client

    client = Client()
    client.force_login(plain_user)
    headers = {"Sec-Fetch-Site": site} if site else {}

    response = client.get("/api/answer/stream", {"question": "How long are deleted files kept in the trash?"},
                          headers=headers)

    assert response.status_code == 200 and "30 days" in streamed(response)


def test_a_program_without_a_session_may_ask_from_anywhere(client, small_corpus):
    response = client.get("/api/answer/stream", {"question": "How long are deleted files kept in the trash?"},
                          headers={"Sec-Fetch-Site": "cross-site"})

    assert response.status_code == 200 and "30 days" in streamed(response)


def streamed(response) -> str:
    """The whole body of an event stream (the async view's content, read to its end)."""

    async def read() -> str:
        return "".join([chunk.decode() async for chunk in response.streaming_content])

    return async_to_sync(read)()


def test_public_caller_gets_no_partner_fact_and_no_canary(client, small_corpus):
    response = post(client, {"question": "What reseller discount do partners receive?"})

    body = response.content.decode()
    assert "20%" not in body and "CANARY" not in body and "partners-v1" not in body
    assert response.json()["status"] == "refused"


def test_partner_caller_is_answered_from_the_partner_source(client, small_corpus, partner_user):
    client.force_login(partner_user)

    data = post(client, {"question": "What reseller discount do partners receive?"}).json()

    assert data["status"] == "answered" and data["citations"] == ["partners-v1-c01"]


def test_each_question_is_logged_with_what_was_shown_and_retrieved(client, small_corpus):
    post(client, {"question": "How long are deleted files kept in the trash?"})

    log = QuestionLog.objects.get()
    assert (log.channel, log.status, log.generator) == ("api", "answered", "extractive")
    assert log.sentences[0]["citations"][0]["chunk_id"] == "trash-v1-c01"
    assert log.retrieved[0]["id"] == "trash-v1-c01" and log.context_tokens > 0
    assert log.audiences == ["public"] and "total_ms" in log.timings


def test_an_answer_is_still_delivered_when_its_log_cannot_be_written(client, small_corpus, monkeypatch, caplog):
    def broken_log(*args, **kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr("answers.services.log_answer", broken_log)

    response = post(client, {"question": "How long are deleted files kept in the trash?"})

    assert response.status_code == 200
    assert response.json()["answer"] == "Deleted files are kept in the trash for 30 days."
    assert "Could not write the conversation log" in caplog.text


def random_address() -> str:
    """An address no other test or run used: the counters may be a Redis shared by several runs."""
    return ".".join(["10"] + [str(random.randrange(256)) for _ in range(3)])


@pytest.fixture
def one_rate_window(monkeypatch):
    """The rate limiter's clock held in the middle of the current window: the questions of a test are counted in one
    window however slowly they go (a minute boundary halfway through a test would start the counts again)."""
    now = (time.time() // WINDOW_S) * WINDOW_S + WINDOW_S / 2  # the window real-time tests count in, never another
    monkeypatch.setattr("answers.limits.rates.wall_clock", lambda: now)


def ask_from(client, address: str, **extra):
    return post(client, {"question": "How long are deleted files kept in the trash?"}, REMOTE_ADDR=address, **extra)


def test_cookieless_callers_from_one_address_share_the_callers_limit(client, small_corpus, settings, one_rate_window):
    settings.RAG_RATE_LIMIT = 20  # the default
    address = random_address()

    statuses = [ask_from(client, address).status_code for _ in range(25)]

    assert statuses == [200] * 20 + [429] * 5
    refused = ask_from(client, address)
    assert "You have asked 20 questions in the last minute" in refused.json()["error"]
    assert int(refused["Retry-After"]) == WINDOW_S / 2  # the rest of the window
    assert ask_from(client, random_address()).status_code == 200  # another address is another caller


def test_minting_a_session_per_question_does_not_escape_the_address_limit(client, small_corpus, settings,
                                                                          one_rate_window):
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 20, 22
    address = random_address()

    def with_fresh_session():
        session = SessionStore()
        session.create()
        client.cookies["sessionid"] = session.session_key
        return ask_from(client, address)

    responses = [with_fresh_session() for _ in range(25)]

    assert [r.status_code for r in responses] == [200] * 22 + [429] * 3
    assert "22 questions have been asked from your network address" in responses[-1].json()["error"]
    assert ask_from(client, random_address()).status_code == 200


def test_a_signed_in_user_is_limited_as_themselves_not_by_their_address(client, small_corpus, settings, plain_user):
    settings.RAG_RATE_LIMIT, settings.RAG_ADDRESS_RATE_LIMIT = 20, 3
    address = random_address()
    client.force_login(plain_user)

    statuses = [ask_from(client, address).status_code for _ in range(5)]

    assert statuses == [200] * 5


def test_answers_pause_with_503_while_redis_is_down_and_resume_by_themselves(client, small_corpus, settings,
                                                                            redis_server):
    settings.RAG_RATE_LIMIT = 20  # the limits count in Redis
    address = random_address()
    assert ask_from(client, address).status_code == 200

    redis_server.stop()
    started = time.monotonic()
    down = ask_from(client, address)
    waited = time.monotonic() - started
    redis_server.start()  # the same port
    back = ask_from(client, address)

    assert down.status_code == 503 and int(down["Retry-After"]) > 0
    assert "busy and cannot answer right now" in down.json()["error"]
    assert waited < 3  # wall time: a real refused connection to the stopped Redis, with no retry backoff
    assert back.status_code == 200 and back.json()["status"] == "answered"


def test_a_locked_database_gives_503_within_the_wait_and_answers_once_free(client, small_corpus, locked_database):
    with locked_database():
        started = time.monotonic()
        locked = post(client, {"question": "How long are deleted files kept in the trash?"})
        waited = time.monotonic() - started

    assert locked.status_code == 503 and "busy and cannot answer right now" in locked.json()["error"]
    # wall time: SQLite's own busy timeout, which takes no clock: the configured wait (1 s here), not its 20 s
    assert waited < 1.0 + 2
    assert post(client, {"question": "How long are deleted files kept in the trash?"}).status_code == 200


def test_an_unreachable_database_gives_503(client, small_corpus, unreachable_database):
    response = post(client, {"question": "How long are deleted files kept in the trash?"})

    assert response.status_code == 503 and "busy and cannot answer right now" in response.json()["error"]


@pytest.fixture
def refund_corpus(ingest, filler):
    ingest("refunds.md", "# Refunds\n\nRefunds take 5 business days.\n\nRefunds for digital goods take 10 days.\n")


def test_a_follow_up_with_history_is_answered_as_its_standalone_question(client, refund_corpus):
    data = post(client, {"question": "and for digital goods?", "history": ["How long do refunds take?"]}).json()

    assert data["question"] == "and for digital goods?"
    assert data["resolved_question"] == "How long do refunds take for digital goods?"
    assert data["answer"] == "Refunds for digital goods take 10 days."
    row = QuestionLog.objects.get()
    assert row.question == "and for digital goods?"
    assert row.diagnostics["resolved_question"] == "How long do refunds take for digital goods?"


def test_a_standalone_question_with_history_is_answered_as_asked(client, refund_corpus):
    data = post(client, {"question": "How long do refunds take?", "history": ["What is the Team plan?"]}).json()

    assert data["resolved_question"] is None
    assert data["answer"] == "Refunds take 5 business days."


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("How long do refunds take?", '"history" must be a list'),
        (["a?"] * 6, "holds 6 questions; the limit is 5"),
        ([42], 'Question 1 of "history" must be a non-empty string'),
        (["ok?", "  "], 'Question 2 of "history" must be a non-empty string'),
        (["x" * 2001], 'Question 1 of "history": The question is 2001 characters long; the limit is 2000'),
    ],
)
def test_bad_history_gets_400_with_a_json_error(client, history, message):
    response = post(client, {"question": "and for digital goods?", "history": history})

    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not QuestionLog.objects.exists()
