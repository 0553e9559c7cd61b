"""Request bodies over the limit are refused before Django reads them."""
import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from rag_site.limits import BodySizeLimit

pytestmark = pytest.mark.asyncio


class App:
    """Reads the whole body like Django does and answers 200 with its length."""

    def __init__(self) -> None:
        self.called = False
        self.read = 0

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            self.read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(self.read).encode()})


async def no_more(scope) -> None:
    return None


async def run(app: App, *, headers: list, chunks: list[bytes], granted=no_more) -> list[dict]:
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    limited = BodySizeLimit(app, lambda: 100, granted)
    await limited({"type": "http", "path": "/api/answer", "headers": headers}, receive, send)
    return sent


async def test_declared_length_over_the_limit_is_refused_without_calling_the_app():
    app = App()

    sent = await run(app, headers=[(b"content-length", b"5000")], chunks=[b"x" * 5000])

    assert sent[0]["status"] == 413 and b"limit for this address is 100 bytes" in sent[1]["body"]
    assert not app.called


async def test_undeclared_stream_is_cut_off_once_it_passes_the_limit():
    app = App()

    sent = await run(app, headers=[], chunks=[b"x" * 60, b"x" * 60, b"x" * 60])

    assert sent[0]["status"] == 413
    assert app.read == 60  # the app never saw the bytes past the limit


async def test_body_within_the_limit_passes():
    app = App()

    sent = await run(app, headers=[(b"content-length", b"80")], chunks=[b"x" * 80])

    assert sent[0]["status"] == 200 and sent[1]["body"] == b"80"


async def test_a_larger_limit_is_asked_for_only_once_a_body_passes_the_general_one():
    asked: list[str] = []

    async def granted(scope) -> int:
        asked.append(scope["path"])
        return 200

    small = await run(App(), headers=[(b"content-length", b"80")], chunks=[b"x" * 80], granted=granted)
    assert (small[0]["status"], asked) == (200, [])

    larger = await run(App(), headers=[(b"content-length", b"150")], chunks=[b"x" * 150], granted=granted)
    streamed = await run(App(), headers=[], chunks=[b"x" * 60] * 3, granted=granted)
    too_large = await run(App(), headers=[(b"content-length", b"250")], chunks=[b"x" * 250], granted=granted)

    assert [r[0]["status"] for r in (larger, streamed, too_large)] == [200, 200, 413]
    assert len(asked) == 3 and b"limit for this address is 200 bytes" in too_large[1]["body"]


async def test_site_application_caps_api_bodies(settings):
    from rag_site.asgi import application

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "path": "/api/answer",
        "method": "POST",
        "headers": [(b"content-length", b"99999999")],
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1),
    }
    await application(scope, receive, send)

    assert sent[0]["status"] == 413


MB = 1_048_576


def session_cookie(user=None) -> bytes:
    client = Client()
    if user is not None:
        client.force_login(user)
    else:
        client.session.save()  # an anonymous visitor's session
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def post_to_site(path: str, *, headers: list, chunks: list[bytes]) -> tuple[int, bytes, int]:
    """Status, body and the bytes the site asked for, of a POST through the site's own ASGI application."""
    from rag_site.asgi import application

    sent: list[dict] = []
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]
    asked = 0

    async def receive() -> dict:
        nonlocal asked
        if not messages:
            await asyncio.Event().wait()  # the client waits for the answer (Django listens for a disconnect)
        message = messages.pop(0)
        asked += len(message["body"])
        return message

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "path": path, "method": "POST", "headers": headers, "query_string": b"", "root_path": "",
             "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1)}
    await application(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:]), asked


def upload_headers(length: int, cookie: bytes | None = None) -> list:
    headers = [(b"host", b"testserver"), (b"content-type", b"multipart/form-data; boundary=xyz"),
               (b"content-length", str(length).encode())]
    return headers + ([(b"cookie", cookie)] if cookie else [])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("caller", ["anonymous", "signed_in", "deactivated_staff"])
async def test_a_large_upload_by_anyone_but_staff_is_refused_before_a_byte_is_read(caller, plain_user, staff_user):
    user = {"anonymous": None, "signed_in": plain_user, "deactivated_staff": staff_user}[caller]
    cookie = await sync_to_async(session_cookie)(user)
    if caller == "deactivated_staff":
        staff_user.is_active = False
        await sync_to_async(staff_user.save)()
    path = await sync_to_async(reverse)("admin:corpus_admin_source_upload")

    status, body, asked = await post_to_site(path, headers=upload_headers(90 * MB, cookie), chunks=[b"x" * 1024])

    assert status == 413 and b"2,621,440 bytes" in body
    assert asked == 0


@pytest.mark.django_db(transaction=True)
async def test_an_undeclared_anonymous_upload_is_cut_off_at_the_general_cap():
    path = await sync_to_async(reverse)("admin:corpus_admin_source_upload")
    headers = [(b"host", b"testserver"), (b"content-type", b"multipart/form-data; boundary=xyz")]

    status, _, asked = await post_to_site(path, headers=headers, chunks=[b"x" * MB] * 4)

    assert status == 413 and asked == 3 * MB


@pytest.mark.django_db(transaction=True)
async def test_staff_may_send_the_upload_page_more_than_the_general_cap(staff_user):
    cookie = await sync_to_async(session_cookie)(staff_user)
    path = await sync_to_async(reverse)("admin:corpus_admin_source_upload")

    status, _, asked = await post_to_site(path, headers=upload_headers(4 * MB, cookie), chunks=[b"x" * MB] * 4)

    assert status != 413 and asked == 4 * MB  # read on to the view (which wants its CSRF token: 403)
