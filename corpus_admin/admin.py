"""The corpus admin: upload, re-ingest, withdraw, read chunks, follow background ingests. It translates; ingestion
and the tasks do the work."""
import contextlib
import datetime as dt
import uuid

from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Q, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from corpus_admin.embeddings import semantic_matching_status
from corpus_admin.folders import skipped_summary
from corpus_admin.forms import UploadForm
from corpus_admin.ingestion import (
    ADDED,
    FAILED,
    UNCHANGED,
    UPDATED,
    IngestResult,
    update_source_details,
    withdraw_source,
)
from corpus_admin.models import Chunk, IngestJob, JobStatus, Source, chunk_url
from corpus_admin.selectors import (
    BatchProgress,
    FlaggedSentences,
    ingest_batch,
    ingest_batches,
    instruction_sentences,
)
from corpus_admin.tasks import QUEUED, enqueue_reingest, job_results
from corpus_admin.uploads import ArchiveOutcome, Incoming, queue_incoming
from rag_site.admin_views import ReadOnlyAdminMixin

UNFINISHED = (JobStatus.QUEUED, JobStatus.RUNNING)


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
        "ingest",
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
        flagged = instruction_sentences(source_ids=[source.pk]).get(source.pk, FlaggedSentences({}))
        unknown = (
            format_html("not computed for {} passage{} stored before sentences were kept; ", flagged.not_computed,
                        "" if flagged.not_computed == 1 else "s")
            if flagged.not_computed else ""
        )
        if not flagged.chunks:
            return format_html("{}none{}", unknown, " in the others" if unknown else "")
        links = format_html_join(
            ", ", '<a href="{}">{}</a> ({})', ((chunk_url(c), c, n) for c, n in flagged.chunks.items())
        )
        count = flagged.count
        return format_html(
            "{}{} sentence{}, never used as evidence: {}", unknown, count, "" if count == 1 else "s", links
        )

    @admin.display(description="Instructions")
    def instruction_count(self, source: Source) -> int | str:
        """Sentences of the served chunks flagged as instructions (counted for the page in get_changelist_instance),
        or "not computed" for a source with more passages stored before sentences were kept than are judged now."""
        flagged = getattr(source, "_instructions", None)
        if flagged is None:
            return 0
        return "not computed" if flagged.not_computed else flagged.count

    def get_changelist_instance(self, request: HttpRequest):
        changelist = super().get_changelist_instance(request)
        shown = list(changelist.result_list)
        flagged = instruction_sentences(source_ids=[source.pk for source in shown])
        for source in shown:
            source._instructions = flagged.get(source.pk)
        return changelist

    def get_queryset(self, request: HttpRequest):
        served = Q(chunks__superseded_at__isnull=True, chunks__withdrawn_at__isnull=True)
        unfinished = IngestJob.objects.filter(source=OuterRef("pk"), status__in=UNFINISHED).order_by("-id")
        return (
            super()
            .get_queryset(request)
            .annotate(
                _served_chunks=Count("chunks", filter=served),
                _ingest_status=Subquery(unfinished.values("status")[:1]),
                _ingest_attempts=Subquery(unfinished.values("attempts")[:1]),
            )
        )

    @admin.display(description="Ingest")
    def ingest(self, source: Source) -> str:
        """Its file waiting for the worker, or being ingested; blank when none is."""
        status = source._ingest_status  # type: ignore[attr-defined]  # annotated by get_queryset
        if status == JobStatus.RUNNING:
            attempt = source._ingest_attempts  # type: ignore[attr-defined]
            return "ingesting" + (f" (attempt {attempt})" if attempt > 1 else "")
        return "queued" if status == JobStatus.QUEUED else ""

    def changelist_view(self, request: HttpRequest, extra_context=None):
        """The sources, under a line per upload still being ingested (or finished within the hour)."""
        batches = ingest_batches(finished_since=timezone.now() - dt.timedelta(hours=1))
        progress = [(batch_summary(batch), _batch_url(batch)) for batch in batches]
        context = {"ingest_progress": progress, "semantic_off": semantic_matching_status()}
        return super().changelist_view(request, {**(extra_context or {}), **context})

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
        """Only a source that was never served and waits for no worker: citations must resolve forever (withdraw)."""
        if obj is None or obj.version != 0 or obj.ingest_jobs.filter(status__in=UNFINISHED).exists():
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Source, form, change: bool) -> None:
        update_source_details(
            Source.objects.get(pk=obj.pk),
            title=form.cleaned_data.get("title"),
            audience=form.cleaned_data.get("audience"),
            updated_on=form.cleaned_data.get("updated_on"),
        )

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """Upload one or many files, or folders as .zip archives; each file is queued for the ingest worker to become
        a source or the next version of one, and the page returns at once."""
        if not self.has_add_permission(request):
            return HttpResponseRedirect(reverse("admin:index"))
        form = UploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            outcomes = queue_incoming(
                [Incoming(upload.name, upload.size, upload.read) for upload in form.cleaned_data["files"]],
                audience=form.cleaned_data["audience"] or None,
                title=form.cleaned_data["title"] or None,
                document_date=form.cleaned_data["document_date"],
            )
            queued: list[str] = []
            for outcome in outcomes:
                if isinstance(outcome, ArchiveOutcome):
                    _report_archive(request, self, outcome)
                    queued += [result.path for result in outcome.results if result.outcome == QUEUED]
                elif outcome.outcome == QUEUED:
                    queued.append(outcome.path)
                else:
                    _report(request, self, outcome)
            if queued:
                self.message_user(request, _queued_message(queued), level=messages.SUCCESS)
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
        """Queue each selected source's latest upload for the worker, as a new version."""
        queued, refused = enqueue_reingest(list(queryset))
        for result in refused:
            _report(request, self, result)
        waiting: list[str] = []
        for result in job_results(queued.job_ids):
            if result.outcome == QUEUED:
                waiting.append(result.path)
            else:  # the immediate backend ingested it already
                _report(request, self, result)
        if waiting:
            self.message_user(request, _queued_message(waiting), level=messages.SUCCESS)

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


@admin.register(IngestJob)
class IngestJobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Each uploaded file's background ingest: written by the tasks only."""

    list_display = ("path", "status", "attempts", "outcome", "version", "chunk_count", "error", "queued_at",
                    "finished_at", "source")
    list_filter = ("status", "outcome")
    search_fields = ("path", "error")
    list_select_related = ("source",)
    exclude = ("content",)  # the file's bytes, until it is ingested

    def changelist_view(self, request: HttpRequest, extra_context=None):
        """The jobs, with the progress of the upload they are filtered to; refreshed while it is being ingested."""
        progress = None
        with contextlib.suppress(ValueError):
            progress = ingest_batch(uuid.UUID(request.GET.get("batch", "")))
        context = {
            "ingest_progress": [(batch_summary(progress), "")] if progress else [],
            "refresh_seconds": 5 if progress and not progress.finished else None,
        }
        return super().changelist_view(request, {**(extra_context or {}), **context})


def batch_summary(batch: BatchProgress) -> str:
    """"Ingesting: 7 of 12 done, 1 failed", or "Ingested: ..." once every file is finished."""
    text = f"{'Ingested' if batch.finished else 'Ingesting'}: {batch.done} of {batch.total} done"
    return text + (f", {batch.failed} failed" if batch.failed else "")


def _batch_url(batch: BatchProgress) -> str:
    return reverse("admin:corpus_admin_ingestjob_changelist") + f"?batch={batch.batch}"


def _queued_message(paths: list[str]) -> str:
    """What the upload left for the worker, and where to follow it."""
    what = f"{paths[0]} queued" if len(paths) == 1 else f"{len(paths)} files queued"
    return f"{what} for ingestion; progress on the Sources page."


def _report_archive(request: HttpRequest, model_admin: admin.ModelAdmin, outcome: ArchiveOutcome) -> None:
    """An archive's refusal; else one line for what its files did (or how many wait for the worker), one per file
    that failed, one for those skipped."""
    if outcome.error:
        model_admin.message_user(request, outcome.error, level=messages.ERROR)
        return
    kinds = (QUEUED, ADDED, UPDATED, UNCHANGED, FAILED)
    counts = {kind: sum(r.outcome == kind for r in outcome.results) for kind in kinds}
    chunks = sum(r.chunk_count for r in outcome.results if r.outcome in (ADDED, UPDATED))
    level = messages.WARNING if counts[FAILED] else messages.SUCCESS
    files = f"{len(outcome.results)} file{'' if len(outcome.results) == 1 else 's'}"
    if counts[QUEUED]:  # the rest were refused at once, or the worker was quick
        done = ", ".join(f"{counts[kind]} {kind}" for kind in kinds if counts[kind])
    else:
        done = ", ".join(f"{counts[kind]} {kind}" for kind in kinds[1:]) + f" ({chunks} new chunks)"
    model_admin.message_user(request, f"{outcome.name}: {files}: {done}.", level=level)
    for result in outcome.results:
        if result.failed:
            model_admin.message_user(request, f"{outcome.name}: {result.error}", level=messages.ERROR)
    if outcome.skipped:
        model_admin.message_user(request, f"{outcome.name}: {skipped_summary(outcome.skipped)}.", level=messages.INFO)
