"""The conversation log: one row per question, with what was shown, what was dropped and why."""
from django.conf import settings
from django.db import models


class QuestionLog(models.Model):
    """A question, its caller, and the folded events of its answer; written once, read by staff."""

    class Channel(models.TextChoices):
        API = "api", "JSON API"
        SSE = "sse", "Event stream"
        WEBSOCKET = "ws", "Chat page"
        CLI = "cli", "manage.py ask"

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    session_key = models.CharField(max_length=64, blank=True)
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
