"""The corpus: sources, their uploaded versions, their immutable chunks, the corpus version, and ingest jobs."""
import functools

from django.db import models
from django.urls import reverse
from django.utils import timezone


class Audience(models.TextChoices):
    PUBLIC = "public", "Public"
    PARTNER = "partner", "Partners"
    INTERNAL = "internal", "Internal"


class SourceStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    READY = "ready", "Ready"
    FAILED = "failed", "Failed"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Source(models.Model):
    """A document; its served version's chunks are what callers may retrieve."""

    slug = models.SlugField(max_length=60, unique=True, help_text="Stem of every chunk id; never changes.")
    title = models.CharField(max_length=300)
    path = models.CharField(
        max_length=500,
        unique=True,
        help_text="The source's key: its path in the folder or archive it came from; a single file's name.",
    )
    original_name = models.CharField(max_length=255, help_text="File name as uploaded.")
    media_type = models.CharField(max_length=100, blank=True)
    audience = models.CharField(max_length=10, choices=Audience.choices, default=Audience.PUBLIC)
    sha256 = models.CharField(max_length=64, blank=True, help_text="Hash of the served version's content.")
    version = models.PositiveIntegerField(default=0, help_text="Served version; 0 until one ingest succeeds.")
    updated_on = models.DateField(null=True, blank=True, help_text="When the content last changed.")
    status = models.CharField(max_length=10, choices=SourceStatus.choices, default=SourceStatus.PENDING)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_withdrawn(self) -> bool:
        """Whether the source has been withdrawn from answers."""
        return self.status == SourceStatus.WITHDRAWN


class Upload(models.Model):
    """One uploaded file for a source, kept as bytes so a failed ingest can be retried; never a path on disk."""

    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="uploads")
    original_name = models.CharField(max_length=255)
    content = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    document_date = models.DateField(null=True, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    ingested_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.sha256[:12]})"


class ChunkQuerySet(models.QuerySet):
    def current(self) -> "ChunkQuerySet":
        """Chunks of served versions: neither superseded nor withdrawn."""
        return self.filter(superseded_at__isnull=True, withdrawn_at__isnull=True)

    def past(self) -> "ChunkQuerySet":
        """Chunks of versions no longer served: superseded or withdrawn."""
        return self.exclude(superseded_at__isnull=True, withdrawn_at__isnull=True)


class Chunk(models.Model):
    """A passage of one version of a source. Rows are written once; only the marks (superseded, withdrawn, audience)
    ever change."""

    chunk_id = models.SlugField(max_length=90, unique=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="chunks")
    version = models.PositiveIntegerField()
    ordinal = models.PositiveIntegerField()
    heading_path = models.JSONField(default=list)
    line_start = models.PositiveIntegerField()
    line_end = models.PositiveIntegerField()
    text = models.TextField(help_text="Display text: markup removed, code kept as code.")
    page = models.PositiveIntegerField(null=True, blank=True, help_text="Page (PDF) or slide number, if paged.")
    sentences = models.JSONField(
        default=list,
        blank=True,
        help_text='Sentences of the text as split at ingestion: [{"start", "end", "line", "instruction"?}], '
        "character offsets into the text; code is not split. Empty for chunks written before the text model.",
    )
    token_count = models.PositiveIntegerField()
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    superseded_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    audience = models.CharField(
        max_length=10,
        choices=Audience.choices,
        help_text="Who may read this passage: its source's audience while served; after, never looser than it was.",
    )

    objects = ChunkQuerySet.as_manager()

    class Meta:
        ordering = ["source_id", "version", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["source", "version", "ordinal"], name="chunk_unique_position"),
        ]
        indexes = [models.Index(fields=["superseded_at", "withdrawn_at"], name="chunk_served_idx")]

    def __str__(self) -> str:
        return self.chunk_id

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError("Chunk rows are immutable; mark them through corpus_admin.ingestion instead.")
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return chunk_url(self.chunk_id)

    @property
    def heading_label(self) -> str:
        """The heading path as the page shows it."""
        return " › ".join(self.heading_path)


class TextVector(models.Model):
    """The embedding of one text (a chunk's title, headings and text) under one model, found by the text's hash.

    Keyed by content, not by chunk: a re-ingested source's unchanged chunks, and every test that ingests the same
    documents, find their vectors already here. Rows are never edited.
    """

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of the model id and the text.")
    model = models.CharField(max_length=60)
    vector = models.BinaryField(help_text="float32, little-endian, L2-normalised.")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.model} {self.key[:12]}"


@functools.lru_cache(maxsize=8192)
def chunk_url(chunk_id: str) -> str:
    """The permanent page of a chunk, from its id alone (remembered: every answer links several)."""
    return reverse("chunk-detail", kwargs={"chunk_id": chunk_id})


class CorpusState(models.Model):
    """A single row whose version changes in the same transaction as every change to what is served."""

    version = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"corpus v{self.version}"


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class IngestJob(models.Model):
    """One uploaded file waiting for, or given to, the background worker (corpus_admin/tasks.py).

    The bytes are kept here until the file is ingested, so a worker that dies loses nothing: the job is run again.
    """

    batch = models.UUIDField(db_index=True, help_text="The upload this file came with.")
    path = models.CharField(max_length=500, help_text="The source's key the file is ingested under.")
    original_name = models.CharField(max_length=255)
    content = models.BinaryField(blank=True, help_text="The file, until it is ingested.")
    size = models.PositiveIntegerField()
    audience = models.CharField(max_length=10, choices=Audience.choices, blank=True, help_text="Blank: keep.")
    title = models.CharField(max_length=300, blank=True)
    document_date = models.DateField(null=True, blank=True)
    force = models.BooleanField(default=False, help_text="A new version even if the content is the one served.")
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="How many times a worker started it.")
    outcome = models.CharField(max_length=10, blank=True, help_text="added, updated, unchanged or failed.")
    version = models.PositiveIntegerField(null=True, blank=True, help_text="The source's version after it.")
    chunk_count = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    source = models.ForeignKey(Source, null=True, blank=True, on_delete=models.SET_NULL, related_name="ingest_jobs")
    task_id = models.CharField(max_length=64, blank=True, help_text="The task framework's id of its latest run.")
    worker = models.CharField(max_length=100, blank=True, help_text="Host and process that last ran it.")
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text="When its worker last signalled.")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at", "id"]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="ingest_job_status_idx")]

    def __str__(self) -> str:
        return f"{self.path} ({self.get_status_display().lower()})"
