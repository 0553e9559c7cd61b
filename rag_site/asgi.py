"""ASGI entry point: HTTP through Django, websockets through Channels."""
import functools
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rag_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs the app registry ready)
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from answers.routing import websocket_urlpatterns  # noqa: E402
from rag_site.limits import BodySizeLimit  # noqa: E402
from rag_site.origins import SiteOriginValidator  # noqa: E402

@functools.cache
def upload_path() -> str:
    """The admin's upload page, wherever the admin is mounted."""
    return reverse("admin:corpus_admin_source_upload")


def body_limit(path: str) -> int:
    """Uploads may be large (several files); every other request body is small."""
    return settings.RAG_MAX_REQUEST_MB * 1_048_576 if path == upload_path() else settings.DATA_UPLOAD_MAX_MEMORY_SIZE


application = ProtocolTypeRouter(
    {
        "http": BodySizeLimit(django_asgi_app, body_limit),
        "websocket": SiteOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
