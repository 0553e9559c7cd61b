"""The project's system checks (`manage.py check`; rag_site.asgi runs those of level ERROR at startup)."""
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

SECRET_KEY_MISSING = checks.Error(
    "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.",
    hint="Set DJANGO_SECRET_KEY to a long random string, kept private (or turn DJANGO_DEBUG on for local work).",
    id="rag_site.E001",
)


@checks.register(checks.Tags.security)
def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """rag_site.E001: DEBUG off without a secret key (settings leave it empty then, rather than failing on import)."""
    if settings.DEBUG:
        return []
    try:
        key = settings.SECRET_KEY  # Django refuses to hand out an empty key
    except ImproperlyConfigured:
        key = ""
    return [] if key else [SECRET_KEY_MISSING]
