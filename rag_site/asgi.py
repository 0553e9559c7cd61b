"""ASGI entry point: HTTP through Django, websockets through Channels."""
import functools
import os

from django.core import checks
from django.core.asgi import get_asgi_application
from django.core.management.base import SystemCheckError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rag_site.settings")
django_asgi_app = get_asgi_application()


def refuse_to_start_on_errors() -> None:
    """Raise SystemCheckError naming each system check error (daphne, unlike manage.py, runs no checks)."""
    errors = [
        message
        for message in checks.run_checks()
        if message.level >= checks.ERROR and not message.is_silenced()
    ]
    if errors:
        raise SystemCheckError("The site cannot start:\n" + "\n".join(f"  {error}" for error in errors))


refuse_to_start_on_errors()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry ready)
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import URLPattern, reverse  # noqa: E402

from answers.routing import websocket_urlpatterns  # noqa: E402
from rag_site.limits import ASGIApp, BodySizeLimit, Scope, staff_session  # noqa: E402
from rag_site.origins import SiteOriginValidator  # noqa: E402


@functools.cache
def upload_path() -> str:
    """The admin's upload page, wherever the admin is mounted."""
    return reverse("admin:corpus_admin_source_upload")


def general_body_limit() -> int:
    """Every request body is small, unless upload_body_limit grants more."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


async def upload_body_limit(scope: Scope) -> int | None:
    """Staff may send several large files to the upload page; anyone else is refused there like anywhere else."""
    if scope["path"] != upload_path() or not await staff_session(scope):
        return None
    return settings.RAG_MAX_REQUEST_MB * 1_048_576


def websocket_application(routes: list[URLPattern]) -> ASGIApp:
    """The websocket side of the site: the origin check, the session, then these routes."""
    return SiteOriginValidator(SessionMiddlewareStack(URLRouter(routes)))


application = ProtocolTypeRouter(
    {
        "http": BodySizeLimit(django_asgi_app, general_body_limit, upload_body_limit),
        "websocket": websocket_application(websocket_urlpatterns),
    }
)
