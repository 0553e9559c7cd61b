"""One visibility table (§3): every surface, for every kind of caller, against every audience.

Each restricted document carries a canary in the very sentence that answers its question. A caller must see
exactly the canaries their audiences allow on every surface, and never any other, including in the bodies sent
to the model. A new surface (a route, a command, a log) must be added to SURFACES; `test_every_route_is_covered`
fails until it is.
"""
import io
import json
import random
import tempfile
import uuid
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from answers.models import Conversation, QuestionLog, Rating
from answers.retrieval.caller import CallerRetriever, caller_audiences, max_rank_for
from answers.retrieval.holder import current_index
from answers.testing.fake_anthropic import FakeAnthropic
from corpus_admin.models import Chunk
from corpus_admin.visibility import PARTNER_GROUP

pytestmark = pytest.mark.django_db(transaction=True)

CANARY = {"public": "CANARY-PUBLIC-A1", "partner": "CANARY-PARTNER-B2", "internal": "CANARY-INTERNAL-C3"}
# Every old version: version 1 of a vault document was served to this audience, version 2 (now served) is public.
OLD_CANARY = {"partner": "CANARY-OLD-PARTNER-D4", "internal": "CANARY-OLD-INTERNAL-E5"}
QUESTION = {
    "public": "What is the public kiosk code?",
    "partner": "What is the partner kiosk code?",
    "internal": "What is the internal kiosk code?",
}
# What the chat page sends: its own origin, for the Host it was loaded from.
SITE_HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
CONFLICT_QUESTION = "What is the kiosk upload limit for a single file?"
SEES = {
    "anonymous": {"public"},
    "signed_in": {"public"},
    "partner": {"public", "partner"},
    "partner signed in through the sign-in page": {"public", "partner"},
    "staff": {"public", "partner", "internal"},
    "deactivated": {"public"},
}


@pytest.fixture
def corpus(ingest, filler) -> None:
    for audience in ("public", "partner", "internal"):
        ingest(
            f"{audience}-kiosk.md",
            f"# {audience.title()} kiosk\n\nThe {audience} kiosk code is {CANARY[audience]}.\n\n"
            f"The {audience} kiosk stands in hall {len(audience)}.\n",
            audience=audience,
        )
    ingest("kiosk-limits.md", "# Limits\n\nThe kiosk upload limit for a single file is 100 MB.\n")
    ingest(
        "kiosk-limits-internal.md",
        "# Limits\n\nThe kiosk upload limit for a single file is 300 MB. CANARY-INTERNAL-C3.\n",
        audience="internal",
    )
    for audience, canary in OLD_CANARY.items():
        ingest(f"{audience}-vault.md", f"# Vault\n\nThe vault combination is {canary}.\n", audience=audience)
        ingest(f"{audience}-vault.md", "# Vault\n\nThe vault moved to the basement.\n", audience="public")


@pytest.fixture
def callers(db) -> dict[str, User | None]:
    partners = Group.objects.get_or_create(name=PARTNER_GROUP)[0]
    partner = User.objects.create_user("vt-partner")
    partner.groups.add(partners)
    page_partner = User.objects.create_user(PAGE_PARTNER, password=PASSWORDS[PAGE_PARTNER])
    page_partner.groups.add(partners)
    return {
        "anonymous": None,
        "signed_in": User.objects.create_user("vt-plain"),
        "partner": partner,
        "partner signed in through the sign-in page": page_partner,
        "staff": User.objects.create_user("vt-staff", is_staff=True),
        "deactivated": User.objects.create_user("vt-gone", is_staff=True, is_active=False),
    }


PAGE_PARTNER = "vt-page-partner"
PASSWORDS = {PAGE_PARTNER: "pw-vt-page-partner-1"}  # callers who sign in with a password, through the sign-in page


def fresh_address() -> str:
    """An address of the documentation range no other test uses: failed sign-ins are counted per address."""
    return f"2001:db8::{random.randrange(1, 2**16):x}:{random.randrange(1, 2**16):x}:{random.randrange(1, 2**16):x}"


def client_for(user: User | None) -> Client:
    if user is not None and user.username in PASSWORDS:
        return signed_in_through_the_page(user)
    client = Client()
    if user is not None:
        client.force_login(user)
    else:
        client.get("/")
    return client


def signed_in_through_the_page(user: User) -> Client:
    """A browser-like client (CSRF checked) that signs in with the user's password at the sign-in page."""
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=fresh_address())
    client.get("/accounts/login/")
    response = client.post(
        "/accounts/login/",
        {
            "username": user.username,
            "password": PASSWORDS[user.username],
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert response.status_code == 302, f"signing in at /accounts/login/ gave {response.status_code}"
    return client


def csrf_header(client: Client) -> dict[str, str]:
    """The README's rule for session callers: the csrftoken cookie's value in X-CSRFToken."""
    return {"X-CSRFToken": client.cookies["csrftoken"].value} if "csrftoken" in client.cookies else {}


# --- surfaces: each returns everything the caller was shown for one question --------------------------------


def via_retrieval(user, question: str) -> str:
    retriever = CallerRetriever(current_index(), max_rank_for(caller_audiences(user)))
    return " ".join(
        f"{hit.record.chunk_id} {hit.record.text}" for hit in retriever.search(question.lower().split(), k=8)
    )


def via_api(user, question: str) -> str:
    client = client_for(user)
    return client.post(
        "/api/answer", {"question": question}, content_type="application/json", headers=csrf_header(client)
    ).content.decode()


def via_sse(user, question: str) -> str:
    response = client_for(user).get("/api/answer/stream", {"question": question})
    return b"".join(response).decode()  # the test client is sync; this consumes the async stream


def via_websocket(user, question: str) -> str:
    session = client_for(user).cookies.get("sessionid")  # an anonymous visitor's is the one the chat page starts
    cookie = f"sessionid={session.value}".encode() if session else b""

    async def ask() -> str:
        from rag_site.asgi import application

        communicator = WebsocketCommunicator(
            application, "/ws/chat/", headers=[*SITE_HEADERS, (b"cookie", cookie)]
        )
        assert (await communicator.connect())[0]
        await communicator.send_to(text_data=json.dumps({"question": question}))
        fragments = []
        while not fragments or 'data-event="done"' not in fragments[-1]:
            fragments.append(await communicator.receive_from(timeout=10))
        await communicator.disconnect()
        return "".join(fragments)

    return async_to_sync(ask)()


def via_ask_command(user, question: str) -> str:
    out = io.StringIO()
    args = ["--user", user.username] if user is not None else []
    call_command("ask", question, "--json", *args, stdout=out)
    return out.getvalue()


def via_chunk_pages(user, question: str) -> str:
    client = client_for(user)
    return " ".join(client.get(c.get_absolute_url()).content.decode() for c in Chunk.objects.all())


def via_library(user, question: str) -> str:
    """The library lists titles, not text: a listed kiosk's title stands for its canary."""
    page = client_for(user).get("/library/").content.decode()
    return " ".join(canary for audience, canary in CANARY.items() if f">{audience.title()} kiosk<" in page)


def via_chat_page(user, question: str) -> str:
    return client_for(user).get("/").content.decode()


def via_admin_log(user, question: str) -> str:
    client = client_for(user)
    via_api(user, question)
    # Someone else's question naming every canary: only staff may read the log, and staff may see all of it.
    QuestionLog.objects.create(
        channel=QuestionLog.Channel.API, question=" ".join(CANARY.values()), status="answered", generator="extractive"
    )
    return client.get("/admin/answers/questionlog/", follow=True).content.decode() + " ".join(
        client.get(f"/admin/answers/questionlog/{pk}/change/", follow=True).content.decode()
        for pk in QuestionLog.objects.values_list("pk", flat=True)
    )


def via_ratings(user, question: str) -> str:
    """Rating one's own answer (every caller with a session may), and someone else's answer naming every canary
    (nobody may: the same 404 as a missing answer)."""
    client = client_for(user)
    if user is None:
        client.session.save()  # an anonymous visitor rates with their session (as the chat page starts)
    asked = client.post(
        "/api/answer", {"question": question}, content_type="application/json", headers=csrf_header(client)
    ).json()
    others = QuestionLog.objects.create(
        channel=QuestionLog.Channel.API, question=" ".join(CANARY.values()), status="answered", generator="extractive",
        session_key="someone-elses-session",
    )
    shown = []
    for key, expected in ((asked["answer_key"], 200), (others.answer_key, 404)):
        response = client.post(f"/api/answers/{key}/rating", {"helpful": False, "comment": question},
                               content_type="application/json", headers=csrf_header(client))
        assert response.status_code == expected, (key, response.content)
        shown.append(response.content.decode())
    return " ".join(shown)


def via_conversations(user, question: str) -> str:
    """Asking in a conversation, then reopening it (the side panel, the page, its turns); and someone else's
    conversation, whose answer cites every canary's passage: the 404 page, as for a missing one."""
    client = client_for(user)
    asked = client.post(
        "/api/answer", {"question": question}, content_type="application/json", headers=csrf_header(client)
    ).json()
    key = asked["conversation"]
    assert key is not None, "every caller of the chat page keeps their conversations"
    shown = [client.get("/").content.decode(), client.get("/", {"c": key}).content.decode(),
             client.get(f"/conversations/{key}/turns").content.decode()]
    others = Conversation.objects.create(session_key="someone-elses-session", title=" ".join(CANARY.values()))
    QuestionLog.objects.create(
        channel=QuestionLog.Channel.API, question=" ".join(CANARY.values()), status="answered", generator="extractive",
        session_key="someone-elses-session", conversation=others,
        sentences=[{"text": CANARY[a], "citations": [{"n": 1, "chunk_id": f"{a}-kiosk-v1-c01", "span": None}]}
                   for a in CANARY],
    )
    for url in (f"/?c={others.key}", f"/conversations/{others.key}/turns", f"/conversations/{uuid.uuid4()}/turns"):
        response = client.get(url)
        assert response.status_code == 404, url
        shown.append(response.content.decode())
    return " ".join(shown)


def via_permalinks(user, question: str) -> str:
    """Staff's answer to the question, opened by the caller through its permalink: shown when the caller may see
    every passage it cites, else the 404 page of a missing answer."""
    staff = User.objects.get_or_create(username="vt-permalink-staff", defaults={"is_staff": True})[0]
    asker = client_for(staff)
    answer_key = asker.post("/api/answer", {"question": question}, content_type="application/json").json()["answer_key"]
    client = client_for(user)
    missing = client.get(f"/answers/{uuid.uuid4()}/")
    page = client.get(f"/answers/{answer_key}/")
    turns = client.get(f"/answers/{answer_key}/turns")
    assert page.status_code == turns.status_code
    if page.status_code == 404:
        assert page.content == missing.content
    return page.content.decode() + turns.content.decode()


def via_insight_pages(user, question: str) -> str:
    """The gaps, activity and ratings pages of the admin, over someone else's refused and not-helpful questions that
    name every canary: only staff who may read the log see them, and they see all of it."""
    via_api(user, question)
    canaries = " ".join(CANARY.values())
    QuestionLog.objects.create(channel=QuestionLog.Channel.API, question=canaries, status="refused",
                               refusal_kind="no_material", generator="extractive")
    disliked = QuestionLog.objects.create(channel=QuestionLog.Channel.API, question=f"why {canaries}",
                                          status="answered", generator="extractive", session_key="s")
    Rating.objects.create(log=disliked, session_key="s", helpful=False, comment=canaries)
    client = client_for(user)
    pages = ("/admin/answers/gaps/", "/admin/answers/activity/", "/admin/answers/rating/")
    return " ".join(client.get(page, follow=True).content.decode() for page in pages)


def via_evaluate(user, question: str) -> str:
    """An evaluation case asked with the caller's audience: its printed table and its JSON."""
    audience = max(caller_audiences(user), key=("public", "partner", "internal").index)
    case = {"id": "c1", "question": question, "audience": audience, "expect": "answered", "sources": [], "facts": []}
    with tempfile.TemporaryDirectory() as folder:
        golden, results = Path(folder) / "golden.jsonl", Path(folder) / "results.json"
        golden.write_text(json.dumps(case) + "\n")
        out = io.StringIO()
        call_command("evaluate", "--golden", str(golden), "--json", str(results), stdout=out)
        return out.getvalue() + results.read_text()


def via_error_messages(user, question: str) -> str:
    client = client_for(user)
    missing = client.get("/chunks/internal-kiosk-v1-c01/").content.decode()
    too_long = client.post(
        "/api/answer", {"question": question * 200}, content_type="application/json", headers=csrf_header(client)
    ).content.decode()
    return missing + too_long


def via_sign_in_pages(user, question: str) -> str:
    """The sign-in pages (the site's, sent on to a restricted chunk, and the admin's), a failed sign-in on each, and
    signing out: they show no document."""
    client = client_for(user)
    restricted = Chunk.objects.filter(source__audience="internal").first().get_absolute_url()
    shown = [client.get(page, {"next": restricted}).content.decode() for page in ("/accounts/login/", "/admin/login/")]
    stranger = Client(REMOTE_ADDR=fresh_address())
    for page in ("/accounts/login/", "/admin/login/"):
        shown.append(stranger.post(page, {"username": question, "password": question}).content.decode())
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    shown.append(client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}, follow=True).content.decode())
    return " ".join(shown)


SURFACES = {
    "retrieval": via_retrieval,
    "api": via_api,
    "sse": via_sse,
    "websocket": via_websocket,
    "ask": via_ask_command,
    "chunk pages": via_chunk_pages,
    "library": via_library,
    "chat page": via_chat_page,
    "admin log": via_admin_log,
    "ratings": via_ratings,
    "conversations": via_conversations,
    "permalinks": via_permalinks,
    "insight pages": via_insight_pages,
    "evaluate": via_evaluate,
    "error messages": via_error_messages,
    "sign-in pages": via_sign_in_pages,
}
# Routes each surface covers, by URL name; the admin is covered by "admin log" and admin tests.
ROUTES_COVERED = {
    "chunk-detail", "library", "home", "api-answer", "api-answer-stream", "login", "admin-sign-in", "logout",
    "api-answer-rating",
    "admin-gaps", "admin-activity", "conversation-turns", "answer-permalink", "answer-permalink-turns",
}
SHOWS_ANSWERS = {
    "retrieval", "api", "sse", "websocket", "ask", "chunk pages", "library", "evaluate", "conversations", "permalinks",
}
SHOWS_NO_DOCUMENT = {"sign-in pages"}
SHOWS_OLD_VERSIONS = {"chunk pages"}


@pytest.mark.parametrize("caller", list(SEES))
@pytest.mark.parametrize("surface", list(SURFACES))
def test_each_surface_shows_each_caller_exactly_what_their_audiences_allow(corpus, callers, surface, caller):
    user = callers[caller]
    shown = " ".join(SURFACES[surface](user, QUESTION[audience]) for audience in ("public", "partner", "internal"))

    for audience, canary in CANARY.items():
        if audience not in SEES[caller] or surface in SHOWS_NO_DOCUMENT:
            assert canary not in shown, f"{surface} leaked the {audience} canary to {caller}"
        elif surface in SHOWS_ANSWERS:
            assert canary in shown, f"{surface} hid the {audience} canary from {caller}"
    for audience, canary in OLD_CANARY.items():
        if audience not in SEES[caller]:
            assert canary not in shown, f"{surface} leaked the old {audience} version to {caller}"
        elif surface in SHOWS_OLD_VERSIONS:
            assert canary in shown, f"{surface} hid the old {audience} version from {caller}"


@pytest.mark.parametrize("caller", list(SEES))
def test_conflict_display_shows_only_sides_the_caller_may_see(corpus, callers, caller):
    data = json.loads(via_api(callers[caller], CONFLICT_QUESTION))

    if "internal" in SEES[caller]:
        assert data["refusal"]["kind"] == "conflict"
        assert {s["source_title"] for s in data["refusal"]["sides"]} == {"Limits"}
        assert len(data["refusal"]["sides"]) == 2
    else:
        assert "300 MB" not in json.dumps(data) and "CANARY" not in json.dumps(data)
        assert data["refusal"] is None or data["refusal"]["kind"] != "conflict"


@pytest.mark.parametrize("caller", list(SEES))
def test_the_model_is_never_given_what_the_caller_may_not_see(corpus, callers, caller, settings):
    with FakeAnthropic() as fake:
        settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "fake-key", fake.url
        for audience in ("public", "partner", "internal"):
            via_api(callers[caller], QUESTION[audience])
        sent = json.dumps(fake.requests)

    for audience, canary in CANARY.items():
        assert (canary in sent) == (audience in SEES[caller]), (caller, audience)
    assert not any(canary in sent for canary in OLD_CANARY.values())  # an old version is never retrieved


def test_every_route_is_covered_by_the_table():
    from answers.consumers import UnknownPathConsumer
    from answers.routing import websocket_urlpatterns

    def routes(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":  # the admin is covered by "admin log" and the admin tests
                    yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern), pattern.name

    uncovered = {route for route, name in routes(get_resolver().url_patterns) if name not in ROUTES_COVERED}
    assert not uncovered, f"add these routes (named) to the visibility table: {uncovered}"
    served = [str(p.pattern) for p in websocket_urlpatterns if p.callback.consumer_class is not UnknownPathConsumer]
    assert served == ["ws/chat/"], "add new websocket routes to SURFACES"


def test_source_switched_to_internal_is_gone_for_the_public_on_the_very_next_call(corpus, callers):
    from corpus_admin.ingestion import update_source_details
    from corpus_admin.models import Source

    client = client_for(None)
    assert CANARY["public"] in via_api(None, QUESTION["public"])
    chunk_url = Chunk.objects.get(source__original_name="public-kiosk.md", ordinal=1).get_absolute_url()

    update_source_details(Source.objects.get(original_name="public-kiosk.md"), audience="internal")

    assert CANARY["public"] not in via_api(None, QUESTION["public"])
    assert CANARY["public"] not in via_sse(None, QUESTION["public"])
    assert client.get(chunk_url).status_code == 404
    assert CANARY["public"] in via_api(callers["staff"], QUESTION["public"])


def deactivate(user: User, client: Client) -> None:
    user.is_active = False
    user.save()


def sign_out(user: User, client: Client) -> None:
    assert client.post(reverse("logout")).status_code == 302  # the same session as the open socket's


@pytest.mark.parametrize("revoke", [deactivate, sign_out], ids=lambda f: f.__name__)
def test_staff_deactivated_or_signed_out_while_their_socket_is_open_lose_access_on_the_next_question(
    corpus, callers, revoke
):
    staff = callers["staff"]
    client = client_for(staff)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    async def two_questions() -> tuple[str, str]:
        from asgiref.sync import sync_to_async

        from rag_site.asgi import application

        communicator = WebsocketCommunicator(application, "/ws/chat/", headers=[*SITE_HEADERS, (b"cookie", cookie)])
        assert (await communicator.connect())[0]
        answers = []
        for step in range(2):
            if step == 1:
                await sync_to_async(revoke)(staff, client)
            await communicator.send_to(text_data=json.dumps({"question": QUESTION["internal"]}))
            fragments = []
            while not fragments or 'data-event="done"' not in fragments[-1]:
                fragments.append(await communicator.receive_from(timeout=10))
            answers.append("".join(fragments))
        await communicator.disconnect()
        return answers[0], answers[1]

    before, after = async_to_sync(two_questions)()

    assert CANARY["internal"] in before
    assert CANARY["internal"] not in after


def test_staff_read_every_question_in_the_admin_log(corpus, callers):
    from django.contrib.auth.models import Permission

    staff = callers["staff"]
    staff.user_permissions.add(Permission.objects.get(codename="view_questionlog"))  # support staff read the log

    shown = via_admin_log(staff, QUESTION["public"])

    assert all(canary in shown for canary in CANARY.values())


def test_staff_who_read_the_log_read_every_gap_and_rating(corpus, callers):
    from django.contrib.auth.models import Permission

    staff = callers["staff"]
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_questionlog", "view_rating"]))

    shown = via_insight_pages(staff, QUESTION["public"])

    assert shown.count(CANARY["internal"]) >= 3  # the refused question, the not-helpful one, the comment


# --- answers shown again after the caller lost an audience (a partner removed from the group) ----------------


def reopened_after(client: Client, answer: dict) -> str:
    return client.get(f"/conversations/{answer['conversation']}/turns").content.decode()


def permalinked_after(client: Client, answer: dict) -> str:
    key = answer["answer_key"]
    return client.get(f"/answers/{key}/").content.decode() + client.get(f"/answers/{key}/turns").content.decode()


@pytest.mark.parametrize("again", [reopened_after, permalinked_after], ids=["reopened conversation", "permalink"])
def test_a_partner_removed_from_the_group_no_longer_sees_their_partner_answer_again(corpus, callers, again):
    partner = callers["partner"]
    client = client_for(partner)
    answer = client.post("/api/answer", {"question": QUESTION["partner"]}, content_type="application/json").json()
    assert CANARY["partner"] in again(client, answer)

    partner.groups.clear()

    assert CANARY["partner"] not in again(client, answer)


def test_a_partner_removed_from_the_group_is_no_longer_answered_against_the_sockets_partner_turn(
    corpus, callers, monkeypatch
):
    from answers import consumers
    from rag_site.asgi import application

    partner = callers["partner"]
    cookie = f"sessionid={client_for(partner).cookies['sessionid'].value}".encode()
    histories, real_ask = [], consumers.ask

    async def recording_ask(**kwargs):
        histories.append(kwargs["history"])
        return await real_ask(**kwargs)

    monkeypatch.setattr(consumers, "ask", recording_ask)

    async def ask_twice() -> str:
        from asgiref.sync import sync_to_async

        communicator = WebsocketCommunicator(application, "/ws/chat/", headers=[*SITE_HEADERS, (b"cookie", cookie)])
        assert (await communicator.connect())[0]
        shown = []
        for question in (QUESTION["partner"], "and which hall does it stand in?"):
            if shown:
                await sync_to_async(partner.groups.clear)()
            await communicator.send_to(text_data=json.dumps({"question": question}))
            fragments = []
            while not fragments or 'data-event="done"' not in fragments[-1]:
                fragments.append(await communicator.receive_from(timeout=10))
            shown.append("".join(fragments))
        await communicator.disconnect()
        return shown[0]

    assert CANARY["partner"] in async_to_sync(ask_twice)()
    (turn,) = histories[-1]
    assert turn.question == QUESTION["partner"]
    assert CANARY["partner"] not in " ".join((*turn.answer_sentences, *turn.cited_texts))
