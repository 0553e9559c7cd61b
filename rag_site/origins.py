"""Websockets from the site's own pages only, as Django's CSRF check reads the Origin of a form post.

Channels' AllowedHostsOriginValidator compares the Origin's host name alone, so a page on another port or scheme
of an allowed host (`http://127.0.0.1:6666`) could open a socket that carries the visitor's session cookie.
"""
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

from rag_site.limits import ASGIApp, Receive, Scope, Send

logger = logging.getLogger(__name__)

DEFAULT_PORTS = {"http": 80, "https": 443}
REFUSED_CODE = 4403  # before the handshake completes, daphne answers it with HTTP 403

Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """(scheme, host, port) of an http(s) origin; None for anything else ("null", ws://, a path, a user name)."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path or parts.query or parts.fragment or text.endswith(("?", "#")):
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def allowed_origin(scope: Scope) -> bool:
    """Whether the socket's one Origin header is the socket's own origin or one of DJANGO_CSRF_TRUSTED_ORIGINS."""
    origins = [value for name, value in scope.get("headers") or [] if name == b"origin"]
    host = _host(scope)
    if len(origins) != 1 or host is None:
        return False
    text = origins[0].decode("latin-1")
    origin = parse_origin(text)
    if origin is None:
        return False
    return origin == parse_origin(f"{_scheme(scope)}://{host}") or _trusted(text, origin)


class SiteOriginValidator:
    """ASGI middleware: a websocket handshake whose Origin is not the site's own is refused."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or allowed_origin(scope):
            await self.app(scope, receive, send)
            return
        origin = dict(scope.get("headers") or []).get(b"origin", b"")
        logger.warning("Websocket refused: the origin %r is not this site's", origin.decode("latin-1")[:200])
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": REFUSED_CODE})


def _host(scope: Scope) -> str | None:
    """The Host the socket was opened for (else the server's address) when ALLOWED_HOSTS allows it, as get_host()."""
    headers = dict(scope.get("headers") or [])
    if b"host" in headers:
        host = headers[b"host"].decode("latin-1")
    elif scope.get("server"):
        name, port = scope["server"][0], scope["server"][1]
        host = f"[{name}]:{port}" if ":" in name else f"{name}:{port}"
    else:
        return None
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    return host if domain and validate_host(domain, allowed) else None


def _scheme(scope: Scope) -> str:
    """The page's scheme: https for wss, or what a trusted TLS proxy forwarded (SECURE_PROXY_SSL_HEADER), as Django."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        value = dict(scope.get("headers") or []).get(name)
        if value is not None:
            return "https" if value.decode("latin-1").split(",", 1)[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") == "wss" else "http"


def _trusted(text: str, origin: Origin) -> bool:
    """Whether DJANGO_CSRF_TRUSTED_ORIGINS names the origin, wildcard entries (`https://*.example.com`) included."""
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in entry:
            pattern = urlsplit(entry)
            if pattern.scheme == origin[0] and is_same_domain(urlsplit(text).netloc, pattern.netloc.lstrip("*")):
                return True
        elif parse_origin(entry) == origin:
            return True
    return False
