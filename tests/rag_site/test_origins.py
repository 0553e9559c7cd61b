"""Websockets are accepted only from the site's own origin (scheme, host and port) or a trusted one."""
import pytest
from asgiref.testing import ApplicationCommunicator

from rag_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

TRUSTED = ["https://answers.example.com", "https://*.partners.example.com"]
PROXY = ("HTTP_X_FORWARDED_PROTO", "https")


async def handshake(headers: list[tuple[bytes, bytes]], *, scheme: str = "ws", server=None) -> str:
    """What the site answers a chat socket's handshake with: websocket.accept or websocket.close."""
    scope = {"type": "websocket", "path": "/ws/chat/", "query_string": b"", "headers": headers, "subprotocols": [],
             "scheme": scheme, "server": server, "client": ("127.0.0.1", 50000)}
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "websocket.connect"})
    answer = (await communicator.receive_output(timeout=5))["type"]
    await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
    await communicator.wait(timeout=5)
    return answer


def h(origin: str | None, host: str | None = None, *extra: tuple[bytes, bytes]) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", origin.encode())] if origin is not None else []
    return headers + ([(b"host", host.encode())] if host is not None else []) + list(extra)


@pytest.mark.parametrize(
    ("headers", "accepted"),
    [
        (h("http://localhost:8000", "localhost:8000"), True),
        (h("http://localhost", "localhost"), True),
        (h("http://localhost:80", "localhost"), True),  # the scheme's default port, written out
        (h("http://LOCALHOST:8000", "localhost:8000"), True),
        (h("http://127.0.0.1:8000", "127.0.0.1:8000"), True),
        (h("http://[::1]:8000", "[::1]:8000"), True),
        (h("http://127.0.0.1:6666", "127.0.0.1:8000"), False),  # another port of the same host
        (h("http://localhost:1", "localhost"), False),
        (h("http://localhost:8000", "127.0.0.1:8000"), False),  # another host name, even one that is allowed
        (h("https://localhost:8000", "localhost:8000"), False),  # another scheme
        (h("ws://localhost:8000", "localhost:8000"), False),
        (h("http://evil.example", "localhost:8000"), False),
        (h("http://evil.example", "evil.example"), False),  # a Host outside ALLOWED_HOSTS (DNS rebinding)
        (h("null", "localhost:8000"), False),
        (h("http://localhost:8000/chat", "localhost:8000"), False),  # not an origin
        (h("http://user@localhost:8000", "localhost:8000"), False),
        (h(None, "localhost:8000"), False),
        (h("http://localhost:8000"), False),  # no Host and no server address: nothing to compare with
        (h("http://localhost:8000", "localhost:8000", (b"origin", b"http://evil.example")), False),  # two Origins
    ],
)
async def test_origin_must_be_the_sockets_own(headers, accepted):
    assert await handshake(headers) == ("websocket.accept" if accepted else "websocket.close")


async def test_without_a_host_header_the_server_address_is_the_sockets_own():
    assert await handshake(h("http://127.0.0.1:8000"), server=("127.0.0.1", 8000)) == "websocket.accept"
    assert await handshake(h("http://127.0.0.1:8001"), server=("127.0.0.1", 8000)) == "websocket.close"


async def test_a_secure_socket_takes_the_https_origin_only():
    assert await handshake(h("https://localhost:8443", "localhost:8443"), scheme="wss") == "websocket.accept"
    assert await handshake(h("http://localhost:8443", "localhost:8443"), scheme="wss") == "websocket.close"


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("https://answers.example.com", True),
        ("https://answers.example.com:443", True),
        ("http://answers.example.com", False),
        ("https://answers.example.com:8443", False),
        ("https://eu.partners.example.com", True),  # a wildcard entry, as Django's CSRF check reads it
        ("https://partners.example.com.evil.example", False),
        ("https://example.com", False),
    ],
)
async def test_csrf_trusted_origins_are_accepted_too(settings, origin, accepted):
    settings.CSRF_TRUSTED_ORIGINS = TRUSTED

    assert await handshake(h(origin, "localhost:8000")) == ("websocket.accept" if accepted else "websocket.close")


@pytest.mark.parametrize(
    ("origin", "forwarded", "accepted"),
    [
        ("https://answers.example.com", b"https", True),
        ("http://answers.example.com", b"https", False),
        ("https://answers.example.com", b"http", False),
        ("http://answers.example.com", b"http", True),
    ],
)
async def test_behind_a_tls_proxy_the_forwarded_scheme_is_the_sites(settings, origin, forwarded, accepted):
    settings.SECURE_PROXY_SSL_HEADER = PROXY
    settings.ALLOWED_HOSTS = ["answers.example.com"]

    answer = await handshake(h(origin, "answers.example.com", (b"x-forwarded-proto", forwarded)))

    assert answer == ("websocket.accept" if accepted else "websocket.close")


async def test_without_a_tls_proxy_a_forwarded_scheme_is_ignored(settings):
    settings.ALLOWED_HOSTS = ["answers.example.com"]

    answer = await handshake(h("https://answers.example.com", "answers.example.com", (b"x-forwarded-proto", b"https")))

    assert answer == "websocket.close"
