"""The conversation log: one row per question, with what was shown, what was dropped and why; its conversations and
its ratings."""
import uuid

from django.conf import settings
from django.db import models


class Conversation(models.Model):
    """A chat's questions, kept for their owner: a user, or for an anonymous visitor their session (which expires
    RAG_ANON_CONVERSATION_DAYS after its last question; answers/conversations.py)."""

    # What the page and the API name a conversation by: a random key says nothing of how many there are.
    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    session_key = models.CharField(max_length=64, blank=True, db_index=True)
    title = models.CharField(max_length=200, help_text="The first question, shortened.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(session_key=""), name="conversation_has_an_owner"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class QuestionLog(models.Model):
    """A question, its caller, and the folded events of its answer; written once, read by staff."""

    class Channel(models.TextChoices):
        API = "api", "JSON API"
        SSE = "sse", "Event stream"
        WEBSOCKET = "ws", "Chat page"
        CLI = "cli", "manage.py ask"

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # Issued when the question is admitted, before the row is written: the chat names the answer by it in the same
    # frame as the end of the answer (answers/ratings.py), and it says nothing of how many questions were asked.
    answer_key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    session_key = models.CharField(max_length=64, blank=True)
    # Null for questions asked outside one (old rows, programs without a session); an expired conversation's rows
    # stay in the log for staff.
    conversation = models.ForeignKey(
        Conversation, null=True, blank=True, on_delete=models.SET_NULL, related_name="turns"
    )
    audiences = models.JSONField(default=list)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    question = models.TextField()
    status = models.CharField(max_length=12, db_index=True)
    refusal_kind = models.CharField(max_length=16, blank=True, db_index=True)
    refusal_message = models.TextField(blank=True)
    sentences = models.JSONField(default=list, help_text="Shown sentences with their citations.")
    dropped = models.JSONField(default=list, help_text="Dropped sentences with the reasons.")
    retrieved = models.JSONField(default=list, help_text="Retrieved chunk ids with BM25 scores.")
    blocks = models.JSONField(default=list, help_text="Issued blocks: number and chunk id.")
    conflict = models.JSONField(default=list, help_text="The two sides of a conflict.")
    context_tokens = models.PositiveIntegerField(default=0)
    generator = models.CharField(max_length=40)
    generation = models.JSONField(default=dict, help_text="Model attempts, tokens, compression and errors.")
    error = models.TextField(blank=True)
    diagnostics = models.JSONField(
        default=dict, blank=True,
        help_text="Why it went so: the gate's reason, the chunks assembly skipped, what broke a generator.",
    )
    timings = models.JSONField(default=dict)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.status}: {self.question[:60]}"


class Rating(models.Model):
    """One caller's verdict on one answer (its log row): helpful or not, with an optional comment; changeable.

    The caller is the user when signed in, else the session; each has at most one rating per answer.
    """

    log = models.ForeignKey(QuestionLog, on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    session_key = models.CharField(max_length=64, blank=True)
    helpful = models.BooleanField()
    comment = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["log", "user"], condition=models.Q(user__isnull=False), name="one_rating_per_user_per_answer"
            ),
            models.UniqueConstraint(
                fields=["log", "session_key"], condition=models.Q(user__isnull=True),
                name="one_rating_per_session_per_answer",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(session_key=""), name="rating_has_a_caller"
            ),
        ]

    def __str__(self) -> str:
        return f"{'helpful' if self.helpful else 'not helpful'}: {self.log.question[:60]}"
