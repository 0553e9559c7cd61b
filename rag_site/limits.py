"""Request bodies are capped before Django reads (and spools to disk) a byte of them.

Under daphne the bytes have arrived by then: twisted receives a whole request (a body over 100 kB into a temporary
file) before daphne calls the application. The cap spares Django's parsing; only a proxy in front (nginx's
client_max_body_size) refuses a body before it is sent.
"""
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Scope = dict[str, Any]
Message = Mapping[str, Any]  # read-only, as Django's ASGIHandler declares what it receives and sends
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodySizeLimit:
    """ASGI middleware: 413 for a declared Content-Length over the limit, and a cut-off for a longer stream.

    Every request has the `general` limit; a body that passes it is let through only if `larger(scope)` grants the
    request a larger one (asked once, and only then, since it may read the session from the database).
    """

    def __init__(
        self, app: ASGIApp, general: Callable[[], int], larger: Callable[[Scope], Awaitable[int | None]]
    ) -> None:
        self.app = app
        self.general = general
        self.larger = larger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.general()
        raised = False

        async def raise_limit() -> None:
            nonlocal limit, raised
            raised = True
            limit = max(limit, await self.larger(scope) or 0)

        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await raise_limit()
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit and not raised:
                    await raise_limit()
                if received > limit:
                    return {"type": "http.disconnect"}  # Django abandons the request without reading further
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited_receive, tracking_send)
        if received > limit and not started:
            await _too_large(send, limit)


async def staff_session(scope: Scope) -> bool:
    """Whether the request's session cookie signs in an active staff user (the backend's and the auth hash's checks)."""
    from importlib import import_module

    from channels.auth import get_user
    from django.conf import settings
    from django.http import parse_cookie

    cookies = parse_cookie(dict(scope.get("headers") or []).get(b"cookie", b"").decode("latin-1"))
    session_key = cookies.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        return False
    user = await get_user({"session": import_module(settings.SESSION_ENGINE).SessionStore(session_key)})
    return user.is_active and user.is_staff


async def _too_large(send: Send, limit: int) -> None:
    body = f"Request body too large: the limit for this address is {limit:,} bytes.\n"
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body.encode()})
