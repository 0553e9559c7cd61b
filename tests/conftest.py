"""Shared fixtures: callers of each kind and documents ingested through the real service."""
import datetime as dt
import os

import pytest
from django.contrib.auth.models import Group, User
from django.test import override_settings

from corpus_admin.ingestion import IngestResult, ingest_file
from corpus_admin.testing import IMMEDIATE_TASKS
from corpus_admin.visibility import PARTNER_GROUP
from rag_site.testing import BACKEND_ONLY_ENV, backend_reasons

# Lexical unless a test asks for embeddings (@pytest.mark.embeddings): the suite ingests the demo corpus many times,
# and embedding it each time would cost CI minutes. The environment variable reaches the servers tests start.
os.environ["RAG_EMBEDDINGS"] = "0"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With RAG_TEST_BACKEND_ONLY=1 (CI's PostgreSQL + Redis pass), leave out tests no backend can change."""
    if os.environ.get(BACKEND_ONLY_ENV) != "1":
        return
    sources: dict[str, str] = {}
    kept, left_out = [], []
    for item in items:
        path = str(item.path)
        if path not in sources:
            sources[path] = item.path.read_text(encoding="utf-8")
        reasons = backend_reasons(
            getattr(item, "fixturenames", ()),
            (marker.name for marker in item.iter_markers()),
            getattr(item, "cls", None),
            sources[path],
        )
        (kept if reasons else left_out).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"{BACKEND_ONLY_ENV}=1: {len(left_out)} of {len(kept) + len(left_out)} tests deselected "
            "(no database, channel layer, cache, Redis, limits or live server: same outcome on every backend)"
        )


@pytest.fixture(autouse=True)
def _lexical_unless_marked(request):
    if request.node.get_closest_marker("embeddings"):
        with override_settings(RAG_EMBEDDINGS=True):
            yield
        return
    with override_settings(RAG_EMBEDDINGS=False):
        yield


@pytest.fixture
def partner_user(db) -> User:
    user = User.objects.create_user("pat-partner", password="pw-partner-123")
    user.groups.add(Group.objects.get_or_create(name=PARTNER_GROUP)[0])
    return user


@pytest.fixture
def plain_user(db) -> User:
    return User.objects.create_user("sam-signed-in", password="pw-plain-123")


@pytest.fixture
def staff_user(db) -> User:
    return User.objects.create_user("sue-staff", password="pw-staff-123", is_staff=True)


@pytest.fixture
def admin_user(db) -> User:
    return User.objects.create_superuser("ada-admin", "ada@example.com", "pw-admin-123")


@pytest.fixture
def ingest(db):
    """Ingest text through the real service and fail loudly if it was rejected."""

    def _ingest(
        file_name: str,
        text: str | bytes,
        *,
        audience: str = "public",
        title: str | None = None,
        date: dt.date | None = None,
        path: str | None = None,
    ) -> IngestResult:
        content = text.encode("utf-8") if isinstance(text, str) else text
        result = ingest_file(
            file_name=file_name, path=path, content=content, audience=audience, title=title, document_date=date
        )
        assert not result.failed, result.error
        return result

    return _ingest


FILLER = {
    "office.md": "# Office\n\nThe office kitchen has a coffee machine and a kettle.\n",
    "garden.md": "# Garden\n\nTomatoes grow best in a sunny corner of the garden.\n",
    "travel.md": "# Travel\n\nTrains to the coast leave from platform four every morning.\n",
    "music.md": "# Music\n\nThe choir rehearses on Thursday evenings in the main hall.\n",
    "library.md": "# Library\n\nLibrary books can be borrowed with a reader card.\n",
    "cycling.md": "# Cycling\n\nBicycles should be locked to the racks behind the building.\n",
}


@pytest.fixture
def filler(ingest) -> None:
    """Unrelated public documents: BM25 idf is degenerate in a corpus of two or three chunks."""
    for name, text in FILLER.items():
        ingest(name, text)


@pytest.fixture(autouse=True)
def _no_rate_limit_unless_asked(settings) -> None:
    """Tests ask many questions from one address; the limit tests set their own limits.

    Nor do they freeze the heap after each of their many index builds (tests/answers/test_index.py checks that).
    """
    settings.RAG_GC_FREEZE = False
    settings.RAG_RATE_LIMIT = 0
    settings.RAG_ADDRESS_RATE_LIMIT = 0
    settings.RAG_SITE_RATE_LIMIT = 0
    settings.RAG_MAX_CONCURRENT_PER_CALLER = 0
    settings.RAG_MAX_SOCKETS_PER_CALLER = 0  # cookie-less sockets share one caller key: one left open would count
    settings.RAG_MAX_SOCKETS_PER_ADDRESS = 0
    settings.RAG_RATING_RATE_LIMIT = 0
    settings.RAG_SESSION_MINT_LIMIT = 0


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections(django_db_setup, django_db_blocker):
    """Async tests leave connections open in asgiref's worker threads; PostgreSQL then cannot drop the test DB."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _uploads_ingested_at_once_unless_asked(settings) -> None:
    """Queued ingests run inside the call that queues them (the immediate task backend); the tests of the queue
    itself ask for the database backend and run its worker."""
    settings.TASKS = IMMEDIATE_TASKS
