"""Ratings: the asker rates their answer once and may change it; anyone else gets the 404 of a missing answer;
bad input is 400 naming the problem; CSRF and origin are checked for every caller; ratings are rate-limited."""
import json
import uuid

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client

from answers.models import QuestionLog, Rating

pytestmark = pytest.mark.django_db(transaction=True)

TRASH_Q = "How long are deleted files kept in the trash?"
MISSING = {"error": "No such answer."}


@pytest.fixture
def corpus(ingest, filler):
    ingest("trash.md", "# Trash\n\nDeleted files are kept in the trash for 30 days.\n")


def browser(user: User | None = None, *, session: bool = True, **extra) -> Client:
    """A browser-like client (CSRF enforced) that has loaded the chat page: signed in, or anonymous with the session
    the page starts (`session=False`: a client that keeps no session cookie)."""
    client = Client(enforce_csrf_checks=True, **extra)
    if user is not None:
        client.force_login(user)
    client.get("/")  # the page's CSRF token (its csrftoken cookie) and an anonymous visitor's session
    if not session:
        client.cookies.pop("sessionid", None)
    return client


def token(client: Client) -> dict[str, str]:
    return {"X-CSRFToken": client.cookies["csrftoken"].value}


def ask(client: Client, question: str = TRASH_Q) -> str:
    """Ask over the API as that client; the answer's key."""
    response = client.post("/api/answer", json.dumps({"question": question}), content_type="application/json",
                           headers=token(client))
    assert response.status_code == 200
    return response.json()["answer_key"]


def rate(client: Client, key: str, body: object, *, headers: dict[str, str] | None = None):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(f"/api/answers/{key}/rating", data, content_type="application/json",
                       headers=token(client) if headers is None else headers)


def test_the_asker_rates_their_answer_and_a_second_rating_changes_the_first(corpus, plain_user):
    client = browser(plain_user)
    key = ask(client)

    first = rate(client, key, {"helpful": True})
    second = rate(client, key, {"helpful": False, "comment": "  It did not say whether folders count.  "})

    assert first.status_code == 200 and first.json()["helpful"] is True
    assert second.status_code == 200 and second.json()["helpful"] is False
    rating = Rating.objects.get()
    assert rating.log == QuestionLog.objects.get(answer_key=key)
    assert (rating.user, rating.helpful, rating.comment) == (plain_user, False, "It did not say whether folders count.")
    assert rating.updated_at >= rating.created_at and second.json()["created_at"] == first.json()["created_at"]


def test_an_anonymous_asker_rates_with_their_session(corpus):
    client = browser()
    key = ask(client)

    response = rate(client, key, {"helpful": True, "comment": None})

    assert response.status_code == 200
    rating = Rating.objects.get()
    assert rating.user is None and rating.session_key == client.session.session_key and rating.comment == ""


def test_an_event_stream_names_its_answer_in_a_header_and_is_rated_once_it_has_ended(corpus, plain_user):
    client = browser(plain_user)
    response = client.get("/api/answer/stream", {"question": TRASH_Q})
    b"".join(response)  # the whole stream: the log row is written as it ends

    assert rate(client, response["X-Answer-Key"], {"helpful": True}).status_code == 200
    assert Rating.objects.get().log.channel == "sse"


def test_each_answer_of_the_same_caller_has_its_own_rating(corpus, plain_user):
    client = browser(plain_user)
    keys = [ask(client), ask(client)]

    for helpful, key in zip((True, False), keys, strict=True):
        assert rate(client, key, {"helpful": helpful}).status_code == 200

    assert sorted(Rating.objects.values_list("helpful", flat=True)) == [False, True]


def _other_user(asker: Client) -> Client:
    return browser(User.objects.create_user("someone-else"))


def _anonymous_other_session(asker: Client) -> Client:
    return browser()


def _anonymous_without_session(asker: Client) -> Client:
    return browser(session=False)


def _staff(asker: Client) -> Client:
    return browser(User.objects.create_user("support", is_staff=True))


@pytest.mark.parametrize("stranger", [_other_user, _anonymous_other_session, _anonymous_without_session, _staff])
@pytest.mark.parametrize("asker_kind", ["signed in", "anonymous"])
def test_anyone_but_the_asker_gets_the_404_of_a_missing_answer(corpus, plain_user, asker_kind, stranger):
    asker = browser(plain_user if asker_kind == "signed in" else None)
    key = ask(asker)
    other = stranger(asker)

    response = rate(other, key, {"helpful": False, "comment": "not mine"})
    missing = rate(other, str(uuid.uuid4()), {"helpful": False, "comment": "not mine"})

    assert (response.status_code, response.json()) == (404, MISSING)
    assert (missing.status_code, missing.content) == (response.status_code, response.content)
    assert not Rating.objects.exists()


def test_an_anonymous_question_asked_without_a_session_cannot_be_rated_by_anyone(corpus):
    asker = browser(session=False)
    key = ask(asker)

    assert QuestionLog.objects.get(answer_key=key).session_key == ""
    assert rate(asker, key, {"helpful": True}).status_code == 404
    assert rate(browser(), key, {"helpful": True}).status_code == 404


def test_signing_out_ends_the_right_to_rate_what_was_asked_signed_in(corpus, plain_user):
    client = browser(plain_user)
    key = ask(client)
    client.post("/accounts/logout/", headers=token(client))
    client.get("/")

    assert rate(client, key, {"helpful": True}).status_code == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        ("[true]", "must be a JSON object"),
        ("[" * 100_000, "nested too deeply"),
        ({}, 'The field "helpful" is missing.'),
        ({"helpful": "yes"}, 'The field "helpful" must be true or false.'),
        ({"helpful": 1}, 'The field "helpful" must be true or false.'),
        ({"helpful": None}, 'The field "helpful" must be true or false.'),
        ({"helpful": True, "comment": 5}, 'The field "comment" must be a string.'),
        ({"helpful": True, "comment": ["a"]}, 'The field "comment" must be a string.'),
        ({"helpful": True, "comment": "x" * 1001}, "The comment is 1001 characters long; the limit is 1000."),
        ({"helpful": True, "comment": "a\x00b"}, "U+0000 at character 2"),
        ('{"helpful": true, "comment": "\\ud800"}', "U+D800 at character 1"),
        ({"helpful": True, "stars": 5}, "Unknown field 'stars'"),
    ],
    ids=["not-json", "not-utf8", "list", "nested", "no-helpful", "helpful-string", "helpful-number", "helpful-null",
         "comment-number", "comment-list", "comment-too-long", "comment-nul", "comment-surrogate", "unknown-field"],
)
def test_bad_input_is_400_naming_what_was_wrong_and_stores_nothing(corpus, plain_user, body, message):
    client = browser(plain_user)
    key = ask(client)

    response = rate(client, key, body)

    assert response.status_code == 400 and message in response.json()["error"]
    assert not Rating.objects.exists()


def test_a_comment_of_exactly_the_limit_is_kept(corpus, plain_user, settings):
    settings.RAG_RATING_COMMENT_CHARS = 20
    client = browser(plain_user)
    key = ask(client)

    assert rate(client, key, {"helpful": True, "comment": "é" * 20}).status_code == 200
    assert rate(client, key, {"helpful": True, "comment": "é" * 21}).status_code == 400
    assert Rating.objects.get().comment == "é" * 20


@pytest.mark.parametrize("asker_kind", ["signed in", "anonymous"])
def test_a_rating_without_the_csrf_token_is_403_for_every_caller(corpus, plain_user, asker_kind):
    client = browser(plain_user if asker_kind == "signed in" else None)
    key = ask(client)

    response = rate(client, key, {"helpful": True}, headers={})

    assert response.status_code == 403 and "CSRF" in response.json()["error"]
    assert not Rating.objects.exists()


def test_a_rating_from_another_origin_is_403_even_with_the_token(corpus, plain_user):
    client = browser(plain_user)
    key = ask(client)

    foreign = rate(client, key, {"helpful": True}, headers={**token(client), "Origin": "http://evil.example"})
    own = rate(client, key, {"helpful": True}, headers={**token(client), "Origin": "http://testserver"})

    assert foreign.status_code == 403 and "CSRF" in foreign.json()["error"]
    assert own.status_code == 200


def test_ratings_are_rate_limited_per_caller(corpus, plain_user, settings):
    settings.RAG_RATING_RATE_LIMIT = 2
    client = browser(plain_user)
    key = ask(client)
    for _ in range(2):
        assert rate(client, key, {"helpful": True}).status_code == 200

    refused = rate(client, key, {"helpful": False})

    assert refused.status_code == 429 and "rated 2 answers in the last minute" in refused.json()["error"]
    assert int(refused["Retry-After"]) >= 1
    assert Rating.objects.get().helpful is True


def test_only_post_is_allowed(corpus, plain_user):
    client = browser(plain_user)
    key = ask(client)

    assert client.get(f"/api/answers/{key}/rating").status_code == 405


def test_the_database_holds_one_rating_per_caller_per_answer(corpus, plain_user):
    client = browser(plain_user)
    log = QuestionLog.objects.get(answer_key=ask(client))
    Rating.objects.create(log=log, user=plain_user, helpful=True)
    Rating.objects.create(log=log, session_key="s1", helpful=True)

    for duplicate in ({"user": plain_user}, {"session_key": "s1"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Rating.objects.create(log=log, helpful=False, **duplicate)
    with pytest.raises(IntegrityError), transaction.atomic():
        Rating.objects.create(log=log, helpful=False)  # nobody: no caller to hold it to
