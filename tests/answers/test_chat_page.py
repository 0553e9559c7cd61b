"""The chat page: served with its scripts from static/, a strict CSP, and never cached."""
import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def test_chat_page_has_the_form_the_socket_and_the_live_region(client):
    page = client.get("/").content.decode()

    assert 'id="ask-form"' in page and 'ws-send' in page and 'ws-connect="/ws/chat/"' in page
    assert 'aria-live="polite"' in page and 'name="question"' in page
    assert "/static/vendor/htmx-2.0.11.min.js" in page and "/static/vendor/htmx-ext-ws-2.0.4.min.js" in page
    assert "unpkg" not in page and "cdn" not in page


def test_htmx_runs_without_eval_or_script_tags_and_keeps_no_history(client):
    page = client.get("/").content.decode()

    assert '"allowEval": false' in page and '"allowScriptTags": false' in page and '"historyCacheSize": 0' in page


def test_content_security_policy_allows_only_own_scripts(client):
    policy = client.get("/")["Content-Security-Policy"]

    assert "script-src 'self'" in policy and "unsafe-eval" not in policy and "unsafe-inline" not in policy
    assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy


def test_chat_page_is_not_cached(client):
    response = client.get("/")

    assert "no-store" in response["Cache-Control"]


def test_vendored_scripts_are_served(client):
    for path in ("/static/vendor/htmx-2.0.11.min.js", "/static/vendor/htmx-ext-ws-2.0.4.min.js", "/static/js/chat.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        body = b"".join(response.streaming_content if response.streaming else [response.content])
        assert len(body) > 1000, path  # the file itself, not an empty or error body


def test_a_page_view_starts_one_session_that_a_second_view_keeps(client):
    """An anonymous visitor's conversations and ratings hang off the session the page starts."""
    response = client.get("/")

    assert response.status_code == 200
    assert "sessionid" in response.cookies
    assert Session.objects.count() == 1
    client.get("/")
    assert Session.objects.count() == 1


def test_a_new_visitors_page_costs_one_insert_and_lists_no_conversations(client):
    """A key minted in this request owns nothing yet: no existence check, no rewrite, no conversation list read."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/")

    run = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(run) == 1 and run[0].startswith('INSERT INTO "django_session"')
    assert Session.objects.filter(session_key=response.cookies["sessionid"].value).exists()
    page = response.content.decode()
    assert "history-empty" in page and "conversation-item" not in page


@pytest.mark.django_db(transaction=True)
def test_the_page_says_the_site_is_busy_when_the_database_is_locked(client, plain_user, locked_database):
    client.force_login(plain_user)  # the page reads who is signed in

    with locked_database():
        response = client.get("/")

    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "busy" in response.content.decode() and "try again" in response.content.decode()
