"""Shared fixtures: callers of each kind and documents ingested through the real service."""
import datetime as dt

import pytest
from django.contrib.auth.models import Group, User

from corpus_admin.ingestion import IngestResult, ingest_file
from corpus_admin.visibility import PARTNER_GROUP


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
    ) -> IngestResult:
        content = text.encode("utf-8") if isinstance(text, str) else text
        result = ingest_file(file_name=file_name, content=content, audience=audience, title=title, document_date=date)
        assert not result.failed, result.error
        return result

    return _ingest
