"""manage.py ask "question" [--user NAME] [--json]: the verified answer, or the refusal, on the terminal."""
import json

from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser

from answers.management.answering import AnsweringCommand
from answers.models import QuestionLog
from answers.outages import ServiceUnavailable
from answers.present.api import AnswerSummary
from answers.present.terminal import terminal_lines
from answers.services import Caller, QuestionRejected, ask
from corpus_admin.models import chunk_url


class Command(AnsweringCommand):
    help = "Ask a question as a given user (anonymous by default) and print the verified answer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument("--user", help="Answer as this user (their audiences apply).")
        parser.add_argument("--json", action="store_true", help="Print the /api/answer JSON object.")

    def handle(self, *args, **options) -> None:
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user named {options['user']!r}.")
        try:
            # async_to_sync keeps the service's database calls on this thread (and its connection).
            summary = async_to_sync(self._ask)(options["question"], user)
        except (QuestionRejected, ServiceUnavailable) as error:
            raise CommandError(str(error)) from None
        data = summary.to_json(chunk_url)
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
            return
        for line in terminal_lines(data):
            self.stdout.write(line)

    async def _ask(self, question: str, user) -> AnswerSummary:
        # The shell is trusted: its questions are not rate limited.
        stream = await ask(caller=Caller(user, limited=False), question=question, channel=QuestionLog.Channel.CLI,
                           make_generator=self.make_generator)
        async for _event in stream:
            pass
        return stream.summary
