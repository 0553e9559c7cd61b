"""The session engine: a new session inserted once, a changed one still written, a taken key drawn again, a stored
one read back (an expired one read as none)."""
import datetime as dt

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rag_site import sessions
from rag_site.sessions import SessionStore

pytestmark = pytest.mark.django_db


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements run, without the savepoints the test's own transaction wraps a write in."""
    return [q["sql"].split()[0] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_saving_a_just_inserted_session_unchanged_writes_nothing():
    store = SessionStore()
    with CaptureQueriesContext(connection) as inserted:
        store.save()
    with CaptureQueriesContext(connection) as again:
        store.save()

    assert (statements(inserted), statements(again)) == (["INSERT"], [])  # no existence check before the insert

    assert Session.objects.filter(session_key=store.session_key).exists()


def test_a_session_changed_after_its_insert_is_written():
    store = SessionStore()
    store.save()
    store["seen"] = {"turns": 1}
    store.save()
    store["seen"]["turns"] = 2  # changed in place: still not what was inserted
    store.modified = True
    store.save()

    assert SessionStore(store.session_key)["seen"] == {"turns": 2}


def test_a_taken_key_is_drawn_again(monkeypatch):
    taken = SessionStore()
    taken["owner"] = "first"
    taken.save()
    keys = iter([taken.session_key, "k" * 32])
    monkeypatch.setattr(sessions, "get_random_string", lambda length, chars: next(keys))

    second = SessionStore()
    second.save()

    assert second.session_key == "k" * 32
    assert SessionStore(taken.session_key)["owner"] == "first"


def test_a_stored_session_is_read_back_with_its_data():
    store = SessionStore()
    store["seen"] = {"turns": 3}
    store.save()

    again = SessionStore(store.session_key)

    assert again["seen"] == {"turns": 3} and again.session_key == store.session_key


def test_an_expired_or_missing_session_reads_empty_and_loses_its_key():
    expired = SessionStore()
    expired["seen"] = 1
    expired.save()
    Session.objects.filter(session_key=expired.session_key).update(expire_date=timezone.now() - dt.timedelta(seconds=1))

    for key in (expired.session_key, "m" * 32):
        store = SessionStore(key)
        assert dict(store.items()) == {} and store.session_key is None


def test_a_session_read_with_other_values_reads_them_in_its_own_statement_found_or_not():
    store = SessionStore()
    store["seen"] = 1
    store.save()
    with CaptureQueriesContext(connection) as read:
        found = SessionStore(store.session_key, read_with=("1 + 1", "'x'"))
        assert found["seen"] == 1
    missing = SessionStore("m" * 32, read_with=("1 + 1",))

    assert len(statements(read)) == 1 and found.read_with_values == (2, "x")
    assert missing.load() == {} and missing.session_key is None and missing.read_with_values == (2,)
    assert SessionStore(None, read_with=("1 + 1",)).read_with_values == ()  # no key: no statement
