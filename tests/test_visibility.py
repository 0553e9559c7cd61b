"""One visibility table (§3): every surface, for every kind of caller, against every audience.

Each restricted document carries a canary in the very sentence that answers its question. A caller must see
exactly the canaries their audiences allow on every surface, and never any other, including in the bodies sent
to the model. A new surface (a route, a command, a log) must be added to SURFACES; `test_every_route_is_covered`
fails until it is.
"""
import io
import json
import tempfile
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from django.urls import URLResolver, get_resolver

from answers.index import current_index, max_rank_for
from answers.models import QuestionLog
from answers.services import CallerRetriever, caller_audiences
from answers.testing.fake_anthropic import FakeAnthropic
from corpus_admin.models import Chunk
from corpus_admin.visibility import PARTNER_GROUP

pytestmark = pytest.mark.django_db(transaction=True)

CANARY = {"public": "CANARY-PUBLIC-A1", "partner": "CANARY-PARTNER-B2", "internal": "CANARY-INTERNAL-C3"}
QUESTION = {
    "public": "What is the public kiosk code?",
    "partner": "What is the partner kiosk code?",
    "internal": "What is the internal kiosk code?",
}
CONFLICT_QUESTION = "What is the kiosk upload limit for a single file?"
SEES = {
    "anonymous": {"public"},
    "signed_in": {"public"},
    "partner": {"public", "partner"},
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
    ingest("kiosk-limits-internal.md", "# Limits\n\nThe kiosk upload limit for a single file is 300 MB. CANARY-INTERNAL-C3.\n",
           audience="internal")


@pytest.fixture
def callers(db) -> dict[str, User | None]:
    partners = Group.objects.get_or_create(name=PARTNER_GROUP)[0]
    partner = User.objects.create_user("vt-partner")
    partner.groups.add(partners)
    return {
        "anonymous": None,
        "signed_in": User.objects.create_user("vt-plain"),
        "partner": partner,
        "staff": User.objects.create_user("vt-staff", is_staff=True),
        "deactivated": User.objects.create_user("vt-gone", is_staff=True, is_active=False),
    }


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    else:
        client.get("/")
    return client


# --- surfaces: each returns everything the caller was shown for one question --------------------------------


def via_retrieval(user, question: str) -> str:
    retriever = CallerRetriever(current_index(), max_rank_for(caller_audiences(user)))
    return " ".join(f"{hit.record.chunk_id} {hit.record.text}" for hit in retriever.search(question.lower().split(), k=8))


def via_api(user, question: str) -> str:
    return client_for(user).post("/api/answer", {"question": question}, content_type="application/json").content.decode()


def via_sse(user, question: str) -> str:
    response = client_for(user).get("/api/answer/stream", {"question": question})
    return b"".join(response).decode()  # the test client is sync; this consumes the async stream


def via_websocket(user, question: str) -> str:
    session = client_for(user).cookies.get("sessionid")  # an anonymous visitor's page sets none
    cookie = f"sessionid={session.value}".encode() if session else b""

    async def ask() -> str:
        from rag_site.asgi import application

        communicator = WebsocketCommunicator(
            application, "/ws/chat/", headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
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
    too_long = client.post("/api/answer", {"question": question * 200}, content_type="application/json").content.decode()
    return missing + too_long


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
    "evaluate": via_evaluate,
    "error messages": via_error_messages,
}
# Routes each surface covers, by URL name; the admin is covered by "admin log" and admin tests.
ROUTES_COVERED = {"chunk-detail", "library", "home", "api-answer", "api-answer-stream"}
SHOWS_ANSWERS = {"retrieval", "api", "sse", "websocket", "ask", "chunk pages", "library", "evaluate"}


@pytest.mark.parametrize("caller", list(SEES))
@pytest.mark.parametrize("surface", list(SURFACES))
def test_each_surface_shows_each_caller_exactly_what_their_audiences_allow(corpus, callers, surface, caller):
    user = callers[caller]
    shown = " ".join(SURFACES[surface](user, QUESTION[audience]) for audience in ("public", "partner", "internal"))

    for audience, canary in CANARY.items():
        if audience not in SEES[caller]:
            assert canary not in shown, f"{surface} leaked the {audience} canary to {caller}"
        elif surface in SHOWS_ANSWERS:
            assert canary in shown, f"{surface} hid the {audience} canary from {caller}"


@pytest.mark.parametrize("caller", list(SEES))
def test_conflict_display_shows_only_sides_the_caller_may_see(corpus, callers, caller):
    data = json.loads(via_api(callers[caller], CONFLICT_QUESTION))

    if "internal" in SEES[caller]:
        assert data["refusal"]["kind"] == "conflict"
        assert {s["source_title"] for s in data["refusal"]["sides"]} == {"Limits"} and len(data["refusal"]["sides"]) == 2
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


def test_every_route_is_covered_by_the_table():
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
    assert [str(p.pattern) for p in websocket_urlpatterns] == ["ws/chat/"], "add new websocket routes to SURFACES"


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


def test_user_deactivated_while_their_socket_is_open_loses_access_on_the_next_question(corpus, callers):
    staff = callers["staff"]
    client = client_for(staff)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()

    async def two_questions() -> tuple[str, str]:
        from asgiref.sync import sync_to_async

        from rag_site.asgi import application

        communicator = WebsocketCommunicator(
            application, "/ws/chat/", headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
        )
        assert (await communicator.connect())[0]
        answers = []
        for step in range(2):
            if step == 1:
                staff.is_active = False
                await sync_to_async(staff.save)()
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
