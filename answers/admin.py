"""The conversation log in the admin: read-only, for staff following up on what was said and dropped."""
import json

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from answers.models import QuestionLog
from corpus_admin.highlights import cited_url
from corpus_admin.models import chunk_url
from rag_site.admin_views import ReadOnlyAdminMixin


@admin.register(QuestionLog)
class QuestionLogAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "question_short", "user", "channel", "status", "refusal_kind", "generator")
    list_filter = ("status", "refusal_kind", "channel", "generator")
    search_fields = ("question", "user__username")
    date_hierarchy = "created_at"
    fields = (
        "created_at", "user", "session_key", "audiences", "channel", "question", "status", "refusal_kind",
        "refusal_message", "shown_sentences", "dropped_sentences", "conflict_sides", "retrieved_chunks",
        "issued_blocks", "context_tokens", "generator", "error", "diagnostics_shown", "timings_json",
    )
    readonly_fields = fields

    @admin.display(description="Question")
    def question_short(self, log: QuestionLog) -> str:
        return log.question if len(log.question) <= 80 else log.question[:79] + "…"

    @admin.display(description="Shown sentences")
    def shown_sentences(self, log: QuestionLog) -> str:
        def marks(citations: list[dict]) -> str:
            links = ((logged_citation_url(c), c["n"]) for c in citations)
            return format_html_join(" ", '<a href="{}">[{}]</a>', links)

        return format_html_join("", "<p>{} {}</p>", ((s["text"], marks(s["citations"])) for s in log.sentences)) or "—"

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


def logged_citation_url(cited: dict) -> str:
    """A logged citation's or conflict side's link, its span highlighted (rows logged before spans have none)."""
    span = cited.get("span") or {}
    return cited_url(cited["chunk_id"], [int(n) for n in span.get("sentences", ())])
