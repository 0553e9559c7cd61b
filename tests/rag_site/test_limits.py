"""Request bodies over the limit are refused before Django reads them."""
import pytest

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


async def run(app: App, *, headers: list, chunks: list[bytes]) -> list[dict]:
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    await BodySizeLimit(app, lambda path: 100)({"type": "http", "path": "/api/answer", "headers": headers}, receive, send)
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


async def test_site_application_caps_api_bodies(settings):
    from rag_site.asgi import application

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "path": "/api/answer", "method": "POST", "headers": [(b"content-length", b"99999999")],
             "query_string": b"", "root_path": "", "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1)}
    await application(scope, receive, send)

    assert sent[0]["status"] == 413
