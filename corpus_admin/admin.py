"""The corpus admin: upload, re-ingest, withdraw, and read chunks. It translates; ingestion does the work."""
from django.contrib import admin, messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from corpus_admin.folders import skipped_summary
from corpus_admin.forms import UploadForm
from corpus_admin.ingestion import (
    ADDED,
    FAILED,
    UNCHANGED,
    UPDATED,
    IngestResult,
    reingest_source,
    update_source_details,
    withdraw_source,
)
from corpus_admin.models import Chunk, Source, chunk_url
from corpus_admin.selectors import instruction_sentences
from corpus_admin.uploads import ArchiveOutcome, Incoming, ingest_incoming
from rag_site.admin_views import ReadOnlyAdminMixin


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = (
        "title",
        "path",
        "audience",
        "version",
        "served_chunks",
        "instruction_count",
        "updated_on",
        "status",
        "last_error_short",
    )
    list_filter = ("audience", "status", "media_type")
    search_fields = ("title", "path", "slug")
    readonly_fields = (
        "slug",
        "path",
        "original_name",
        "media_type",
        "sha256",
        "version",
        "status",
        "last_error",
        "created_at",
        "changed_at",
        "passages",
        "instructions",
    )
    fields = ("title", "audience", "updated_on") + readonly_fields
    actions = ("reingest_selected", "withdraw_selected")
    passages_shown = 50  # a synthetic source has 100k chunks: the rest are a paged list away

    @admin.display(description="Passages")
    def passages(self, source: Source) -> str:
        """Links to the served passages' pages, and to the paged list of every version's chunks."""
        served = source.chunks.current().order_by("ordinal")[: self.passages_shown]
        links = format_html_join(", ", '<a href="{}">{}</a>', ((c.get_absolute_url(), c.chunk_id) for c in served))
        every = reverse("admin:corpus_admin_chunk_changelist") + f"?source__id__exact={source.pk}"
        return format_html('{}<br><a href="{}">All chunks of every version</a>', links or "none served", every)

    @admin.display(description="Written as instructions")
    def instructions(self, source: Source) -> str:
        """How many served sentences are flagged as instructions to an AI (§2.8), and the passages that hold them."""
        flagged = instruction_sentences(source_ids=[source.pk]).get(source.pk, {})
        if not flagged:
            return "none"
        links = format_html_join(", ", '<a href="{}">{}</a> ({})', ((chunk_url(c), c, n) for c, n in flagged.items()))
        count = sum(flagged.values())
        return format_html(
            "{} sentence{}, never used as evidence: {}", count, "" if count == 1 else "s", links
        )

    @admin.display(description="Instructions")
    def instruction_count(self, source: Source) -> int:
        """Sentences of the served chunks flagged as instructions (counted for the page in get_changelist_instance)."""
        return getattr(source, "_instruction_count", 0)

    def get_changelist_instance(self, request: HttpRequest):
        changelist = super().get_changelist_instance(request)
        shown = list(changelist.result_list)
        flagged = instruction_sentences(source_ids=[source.pk for source in shown])
        for source in shown:
            source._instruction_count = sum(flagged.get(source.pk, {}).values())
        return changelist

    def get_queryset(self, request: HttpRequest):
        served = Q(chunks__superseded_at__isnull=True, chunks__withdrawn_at__isnull=True)
        return super().get_queryset(request).annotate(_served_chunks=Count("chunks", filter=served))

    @admin.display(description="Chunks", ordering="_served_chunks")
    def served_chunks(self, source: Source) -> int:
        return source._served_chunks  # type: ignore[attr-defined]  # annotated by get_queryset, unknown to the stubs

    @admin.display(description="Last error")
    def last_error_short(self, source: Source) -> str:
        return (source.last_error[:80] + "…") if len(source.last_error) > 80 else source.last_error

    def get_urls(self):
        urls = super().get_urls()
        upload = path("upload/", self.admin_site.admin_view(self.upload_view), name="corpus_admin_source_upload")
        return [upload, *urls]

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:corpus_admin_source_upload"))

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # citations must resolve forever: withdraw instead

    def save_model(self, request: HttpRequest, obj: Source, form, change: bool) -> None:
        update_source_details(
            Source.objects.get(pk=obj.pk),
            title=form.cleaned_data.get("title"),
            audience=form.cleaned_data.get("audience"),
            updated_on=form.cleaned_data.get("updated_on"),
        )

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or many files, or folders as .zip archives; each file becomes a source or the next version of
        one."""
        if not self.has_add_permission(request):
            return HttpResponseRedirect(reverse("admin:index"))
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            outcomes = ingest_incoming(
                [Incoming(upload.name, upload.size, upload.read) for upload in form.cleaned_data["files"]],
                audience=form.cleaned_data["audience"] or None,
                title=form.cleaned_data["title"] or None,
                document_date=form.cleaned_data["document_date"],
            )
            for outcome in outcomes:
                if isinstance(outcome, ArchiveOutcome):
                    _report_archive(request, self, outcome)
                else:
                    _report(request, self, outcome)
            return HttpResponseRedirect(reverse("admin:corpus_admin_source_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "title": "Upload documents",
        }
        return TemplateResponse(request, "admin/corpus_admin/source/upload.html", context)

    @admin.action(description="Re-ingest the latest upload of the selected sources", permissions=["change"])
    def reingest_selected(self, request: HttpRequest, queryset) -> None:
        for source in queryset:
            _report(request, self, reingest_source(source))

    @admin.action(description="Withdraw the selected sources from answers", permissions=["change"])
    def withdraw_selected(self, request: HttpRequest, queryset) -> None:
        for source in queryset:
            withdraw_source(source)
        self.message_user(request, f"Withdrew {queryset.count()} source(s); their passages stay readable.")


@admin.register(Chunk)
class ChunkAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "chunk_id", "source", "version", "ordinal", "token_count", "audience", "superseded_at", "withdrawn_at"
    )
    list_filter = ("audience",)
    search_fields = ("chunk_id", "text", "source__title")
    list_select_related = ("source",)


def _report(request: HttpRequest, model_admin: admin.ModelAdmin, result: IngestResult) -> None:
    if result.outcome == FAILED:
        model_admin.message_user(request, result.error, level=messages.ERROR)
    elif result.outcome == UNCHANGED:
        model_admin.message_user(
            request, f"{result.path}: unchanged (same content as version {result.version}).", level=messages.INFO
        )
    else:
        verb = {ADDED: "added", UPDATED: "updated to"}[result.outcome]
        model_admin.message_user(
            request,
            f"{result.path}: {verb} version {result.version} with {result.chunk_count} chunks.",
            level=messages.SUCCESS,
        )


def _report_archive(request: HttpRequest, model_admin: admin.ModelAdmin, outcome: ArchiveOutcome) -> None:
    """An archive's refusal; else one line for what its files did, one per file that failed, one for those skipped."""
    if outcome.error:
        model_admin.message_user(request, outcome.error, level=messages.ERROR)
        return
    counts = {kind: sum(r.outcome == kind for r in outcome.results) for kind in (ADDED, UPDATED, UNCHANGED, FAILED)}
    chunks = sum(r.chunk_count for r in outcome.results if r.outcome in (ADDED, UPDATED))
    level = messages.WARNING if counts[FAILED] else messages.SUCCESS
    files = f"{len(outcome.results)} file{'' if len(outcome.results) == 1 else 's'}"
    model_admin.message_user(
        request,
        f"{outcome.name}: {files}: {counts[ADDED]} added, {counts[UPDATED]} updated, "
        f"{counts[UNCHANGED]} unchanged, {counts[FAILED]} failed ({chunks} new chunks).",
        level=level,
    )
    for result in outcome.results:
        if result.failed:
            model_admin.message_user(request, f"{outcome.name}: {result.error}", level=messages.ERROR)
    if outcome.skipped:
        model_admin.message_user(request, f"{outcome.name}: {skipped_summary(outcome.skipped)}.", level=messages.INFO)
