"""The conversation log, its conversations and its ratings in the admin: read-only, for staff following up on what
was said and dropped, and on what users thought of it (the gaps and activity pages are answers/admin_insight.py's)."""
import json

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from answers.insight.golden_cases import append_golden_cases
from answers.models import Conversation, QuestionLog, Rating
from corpus_admin.highlights import cited_url
from corpus_admin.models import chunk_url
from rag_site.admin_views import ReadOnlyAdminMixin


def shown_sentences_html(log: QuestionLog) -> str:
    """The shown sentences, each with its [n] links to the cited chunks (escaped)."""

    def marks(citations: list[dict]) -> str:
        links = ((logged_citation_url(c), c["n"]) for c in citations)
        return format_html_join(" ", '<a href="{}">[{}]</a>', links)

    return format_html_join("", "<p>{} {}</p>", ((s["text"], marks(s["citations"])) for s in log.sentences)) or "—"


def caller_shown(user, session_key: str) -> str:
    """Who: the user's name, or an anonymous session by the start of its key."""
    if user is not None:
        return user.get_username()
    return f"anonymous session {session_key[:8]}…" if session_key else "anonymous"


class RatingInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Rating
    extra = 0
    fields = ("helpful", "comment", "rated_by", "created_at", "updated_at")
    readonly_fields = fields
    can_delete = False

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        """Whoever may read the log reads its ratings with it."""
        return request.user.has_perm("answers.view_questionlog")

    @admin.display(description="By")
    def rated_by(self, rating: Rating) -> str:
        return caller_shown(rating.user, rating.session_key)


@admin.register(QuestionLog)
class QuestionLogAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    change_list_template = "admin/answers/questionlog/change_list.html"
    list_display = ("created_at", "question_short", "user", "channel", "status", "refusal_kind", "generator")
    list_filter = ("status", "refusal_kind", ("ratings__helpful", admin.BooleanFieldListFilter), "channel", "generator")
    inlines = (RatingInline,)
    actions = ("add_to_golden_set",)
    search_fields = ("question", "user__username")
    date_hierarchy = "created_at"
    fields = (
        "created_at", "answer_key", "user", "session_key", "audiences", "channel", "question", "status", "refusal_kind",
        "refusal_message", "shown_sentences", "dropped_sentences", "conflict_sides", "retrieved_chunks",
        "issued_blocks", "context_tokens", "generator", "error", "diagnostics_shown", "timings_json",
    )
    readonly_fields = fields

    @admin.display(description="Question")
    def question_short(self, log: QuestionLog) -> str:
        return log.question if len(log.question) <= 80 else log.question[:79] + "…"

    @admin.display(description="Shown sentences")
    def shown_sentences(self, log: QuestionLog) -> str:
        return shown_sentences_html(log)

    @admin.display(description="Dropped sentences")
    def dropped_sentences(self, log: QuestionLog) -> str:
        reasons = ((d["text"], "; ".join(d["reasons"])) for d in log.dropped)
        return format_html_join("", "<p>{}<br><em>{}</em></p>", reasons) or "—"

    @admin.display(description="Conflict")
    def conflict_sides(self, log: QuestionLog) -> str:
        sides = ((s["statement"], logged_citation_url(s), s["chunk_id"]) for s in log.conflict)
        return format_html_join("", '<p>{} (<a href="{}">{}</a>)</p>', sides) or "—"

    @admin.display(description="Retrieved")
    def retrieved_chunks(self, log: QuestionLog) -> str:
        return format_html_join(
            ", ", '<a href="{}">{}</a> ({:.3f})', ((chunk_url(r["id"]), r["id"], r["score"]) for r in log.retrieved)
        ) or "—"

    @admin.display(description="Blocks issued")
    def issued_blocks(self, log: QuestionLog) -> str:
        return format_html_join(
            ", ", '[{}] <a href="{}">{}</a>', ((b["n"], chunk_url(b["chunk_id"]), b["chunk_id"]) for b in log.blocks)
        ) or "—"

    @admin.display(description="Diagnostics")
    def diagnostics_shown(self, log: QuestionLog) -> str:
        notes = log.diagnostics or {}
        skipped = ((chunk_url(s["id"]), s["id"], s["why"]) for s in notes.get("skipped", ()))
        return format_html(
            "{}{}{}",
            format_html("<p>Gate: {}</p>", notes["gate"]) if notes.get("gate") else "",
            format_html_join("", '<p>Skipped <a href="{}">{}</a>: {}</p>', skipped),
            format_html("<pre>{}</pre>", notes["generator_error"]) if notes.get("generator_error") else "",
        ) or "—"

    @admin.display(description="Timings (ms)")
    def timings_json(self, log: QuestionLog) -> str:
        return format_html("<code>{}</code>", json.dumps(log.timings))

    def has_golden_permission(self, request: HttpRequest) -> bool:
        """Staff who may read the log may turn its questions into golden cases (a file for `evaluate`)."""
        return self.has_view_permission(request)

    @admin.action(description="Add to golden set", permissions=["golden"])
    def add_to_golden_set(self, request: HttpRequest, queryset: QuerySet[QuestionLog]) -> None:
        """Append the selected questions as golden cases to RAG_GOLDEN_APPEND_PATH (facts left to write)."""
        appended = append_golden_cases(queryset, path=settings.RAG_GOLDEN_APPEND_PATH)
        if appended.added:
            self.message_user(
                request, f"Added {len(appended.added)} golden case{'s' if len(appended.added) > 1 else ''} "
                f"({', '.join(appended.added)}) to {appended.path}; write their facts there.", messages.SUCCESS,
            )
        for pk, why in appended.skipped:
            self.message_user(request, f"Row {pk} was not added: {why}.", messages.WARNING)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    change_list_template = "admin/answers/rating/change_list.html"
    list_display = ("updated_at", "verdict", "question_link", "answer_status", "comment_short", "rated_by")
    list_filter = ("helpful", "log__status", "log__refusal_kind")
    list_select_related = ("log", "user")
    search_fields = ("log__question", "comment", "user__username")
    date_hierarchy = "updated_at"
    fields = ("question_link", "answer_status", "refusal", "answer_sentences", "verdict", "comment", "rated_by",
              "created_at", "updated_at")
    readonly_fields = fields

    @admin.display(description="Helpful", ordering="helpful")
    def verdict(self, rating: Rating) -> str:
        return "Helpful" if rating.helpful else "Not helpful"

    @admin.display(description="Question", ordering="log__question")
    def question_link(self, rating: Rating) -> str:
        question = rating.log.question
        short = question if len(question) <= 80 else question[:79] + "…"
        return format_html('<a href="{}">{}</a>', reverse("admin:answers_questionlog_change", args=[rating.log_id]),
                           short)

    @admin.display(description="Status", ordering="log__status")
    def answer_status(self, rating: Rating) -> str:
        return rating.log.status

    @admin.display(description="Refusal")
    def refusal(self, rating: Rating) -> str:
        log = rating.log
        return f"{log.refusal_kind}: {log.refusal_message}" if log.refusal_kind else "—"

    @admin.display(description="Shown sentences")
    def answer_sentences(self, rating: Rating) -> str:
        return shown_sentences_html(rating.log)

    @admin.display(description="Comment")
    def comment_short(self, rating: Rating) -> str:
        return rating.comment if len(rating.comment) <= 80 else rating.comment[:79] + "…"

    @admin.display(description="By")
    def rated_by(self, rating: Rating) -> str:
        return caller_shown(rating.user, rating.session_key)

def logged_citation_url(cited: dict) -> str:
    """A logged citation's or conflict side's link, its span highlighted (rows logged before spans have none)."""
    span = cited.get("span") or {}
    return cited_url(cited["chunk_id"], [int(n) for n in span.get("sentences", ())])


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Conversations as their owners had them: who, when started, the last question and how many answers; each
    answer links to its log row. Nothing here edits a stored answer."""

    list_display = ("title", "owner", "created_at", "last_question", "answer_count", "updated_at")
    list_filter = (("user", admin.EmptyFieldListFilter),)
    search_fields = ("title", "user__username", "turns__question")
    date_hierarchy = "created_at"
    fields = ("title", "key", "owner", "created_at", "updated_at", "answer_count", "answers")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Conversation]:
        last = QuestionLog.objects.filter(conversation=OuterRef("pk")).order_by("-created_at", "-id")
        return (
            super().get_queryset(request).select_related("user")
            .annotate(_answers=Count("turns"), _last_question=Subquery(last.values("question")[:1]))
        )

    @admin.display(description="Owner", ordering="user__username")
    def owner(self, conversation: Conversation) -> str:
        return caller_shown(conversation.user, conversation.session_key)

    @admin.display(description="Last question", ordering="_last_question")
    def last_question(self, conversation: Conversation) -> str:
        question = getattr(conversation, "_last_question", None) or ""
        return question if len(question) <= 80 else question[:79] + "…"

    @admin.display(description="Answers", ordering="_answers")
    def answer_count(self, conversation: Conversation) -> int:
        return getattr(conversation, "_answers", 0)

    @admin.display(description="Questions and answers")
    def answers(self, conversation: Conversation) -> str:
        """Each turn, oldest first: its question linking to its log row, its status and its shown sentences."""
        turns = conversation.turns.order_by("created_at", "id")
        return format_html_join("", '<p><a href="{}">{}</a> ({})</p>{}', (
            (reverse("admin:answers_questionlog_change", args=[log.pk]), log.question, log.status,
             shown_sentences_html(log)) for log in turns
        )) or "—"
