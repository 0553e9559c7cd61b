"""Which tests can come out differently on PostgreSQL and Redis than on SQLite and in-process layers.

CI runs the suite on SQLite, then again on PostgreSQL with Redis carrying the channel layer, the cache and the
limits' counters (`RAG_TEST_BACKEND_ONLY=1`, tests/conftest.py). A test that touches none of them gives the same
outcome twice, so the second pass leaves it out. The rule errs towards keeping: any database fixture or marker,
Django test case, live server, Redis or channel-layer fixture keeps a test, and so does any word of its module that
names the database, channels, ASGI, the cache, Redis, the limits, the environment or a subprocess (whose settings
come from the environment). A test left out can reach none of them but through a fixture or an import named here;
what it reaches otherwise (the pipeline, parsing) is the same code on every backend.
"""
import re
from collections.abc import Iterable

from django.test import SimpleTestCase

BACKEND_ONLY_ENV = "RAG_TEST_BACKEND_ONLY"

# Fixtures (the test's whole closure, so a project fixture on top of `db` counts) that reach the database, a live
# server, Redis, or a request path through the middleware, sessions and limits.
BACKEND_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "django_user_model",
        "live_server",
        "live_server_url",
        "client",
        "async_client",
        "admin_client",
        "rf",
        "async_rf",
        "redis_server",
    }
)
BACKEND_MARKERS = frozenset({"django_db", "browser"})

# Words in a test's module that keep all its tests (case matters: "limits" alone is also the pipeline's config, and
# "cache" functools'): the database, channels and their layers, ASGI applications and servers, the cache, Redis,
# the limits, and anything that passes the environment on to settings (a subprocess, os.environ).
BACKEND_WORDS = re.compile(
    r"django_db_blocker|django\.db|DATABASE|DJANGO_DB|\bvendor\b"
    r"|\bchannels\b|channel_layer|CHANNEL_LAYERS|Communicator|\bconsumers?\b|\brouting\b|asgi|ASGI|daphne|live_server"
    r"|CACHES|django\.core\.cache|\bcaches\b|[Rr]edis|REDIS"
    r"|answers\.limits|answers import limits|rag_site\.limits|rag_site import limits|\bcounters\b"
    r"|environ|getenv|subprocess|Popen|sys\.executable|multiprocessing|DJANGO_SETTINGS"
)


def backend_reasons(fixtures: Iterable[str], markers: Iterable[str], cls: type | None, source: str) -> list[str]:
    """Why a test can depend on the database, channel layer, cache or Redis; empty: it cannot."""
    reasons = [f"fixture {name}" for name in sorted(BACKEND_FIXTURES.intersection(fixtures))]
    reasons += [f"marker {name}" for name in sorted(BACKEND_MARKERS.intersection(markers))]
    if cls is not None and issubclass(cls, SimpleTestCase):
        reasons.append(f"Django test case {cls.__name__}")
    reasons += sorted({f"word {match.group(0)!r}" for match in BACKEND_WORDS.finditer(source)})
    return reasons
