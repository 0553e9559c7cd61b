"""manage.py purge_conversations: delete anonymous conversations past RAG_ANON_CONVERSATION_DAYS (run it daily)."""
from django.conf import settings
from django.core.management.base import BaseCommand

from answers.conversations import purge_expired


class Command(BaseCommand):
    help = "Delete anonymous visitors' conversations whose last question is older than RAG_ANON_CONVERSATION_DAYS."

    def handle(self, *args, **options) -> None:
        deleted = purge_expired()
        self.stdout.write(f"Deleted {deleted} anonymous conversation{'' if deleted == 1 else 's'} older than "
                          f"{settings.RAG_ANON_CONVERSATION_DAYS} days (their questions stay in the log).")
