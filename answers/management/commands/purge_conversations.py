"""manage.py purge_conversations: delete anonymous conversations past RAG_ANON_CONVERSATION_DAYS and expired sessions
(run it daily)."""
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand
from django.utils import timezone

from answers.conversations import purge_expired


class Command(BaseCommand):
    help = ("Delete anonymous visitors' conversations whose last question is older than RAG_ANON_CONVERSATION_DAYS, "
            "and expired sessions.")

    def handle(self, *args, **options) -> None:
        deleted = purge_expired()
        self.stdout.write(f"Deleted {deleted} anonymous conversation{'' if deleted == 1 else 's'} older than "
                          f"{settings.RAG_ANON_CONVERSATION_DAYS} days (their questions stay in the log).")
        # Every new visitor of the chat page is given a session (a row of the database store); Django leaves expired
        # ones to `clearsessions`, which nothing ran.
        sessions, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
        self.stdout.write(f"Deleted {sessions} expired session{'' if sessions == 1 else 's'}.")
