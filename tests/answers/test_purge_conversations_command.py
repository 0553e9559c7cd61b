"""manage.py purge_conversations: expired anonymous conversations go, their questions stay in the log; a user's stay."""
import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from answers.models import Conversation, QuestionLog

pytestmark = pytest.mark.django_db


def test_expired_anonymous_conversations_are_deleted_and_their_log_rows_kept(settings, plain_user):
    settings.RAG_ANON_CONVERSATION_DAYS = 7
    old = Conversation.objects.create(session_key="s-old", title="old")
    fresh = Conversation.objects.create(session_key="s-new", title="fresh")
    users = Conversation.objects.create(user=plain_user, title="a user's")
    QuestionLog.objects.create(channel="ws", question="q", status="answered", generator="extractive", conversation=old)
    Conversation.objects.filter(pk__in=[old.pk, users.pk]).update(updated_at=timezone.now() - dt.timedelta(days=8))
    out = io.StringIO()

    call_command("purge_conversations", stdout=out)

    assert set(Conversation.objects.values_list("title", flat=True)) == {fresh.title, users.title}
    assert QuestionLog.objects.get().conversation is None
    assert out.getvalue().startswith("Deleted 1 anonymous conversation older than 7 days")


def test_expired_sessions_are_deleted_too():
    # Every new visitor of the chat page is given a session; before, nothing ever deleted an expired one.
    from django.contrib.sessions.models import Session

    from rag_site.sessions import SessionStore

    stale, live = SessionStore(), SessionStore()
    stale.create(), live.create()
    Session.objects.filter(session_key=stale.session_key).update(expire_date=timezone.now() - dt.timedelta(seconds=1))
    out = io.StringIO()

    call_command("purge_conversations", stdout=out)

    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
    assert "Deleted 1 expired session." in out.getvalue()
