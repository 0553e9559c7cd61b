"""Ingestion off the request path: uploaded files become jobs that a background worker ingests, a few dozen at a time.

`enqueue_ingest` stores each file's bytes in an IngestJob and enqueues `ingest_job` on Django's tasks framework
(django-tasks; the backend is RAG_TASKS_BACKEND) for each JOBS_PER_TASK files of the upload, then returns. The worker
(`manage.py ingest_worker`) runs the task: it claims the jobs, ingests their files with `ingest_files` (parsed side by
side in the sandbox's workers, stored in one transaction, each file alone if that fails: a failed file leaves the
previous version served) and records each outcome on its job and source. While it runs, a thread stamps the jobs'
heartbeat; a running job whose heartbeat is older than RAG_INGEST_STALE_S was left by a worker that stopped, and
`recover_stalled_jobs` queues it again (in a task of its own) or, once it has been started RAG_INGEST_ATTEMPTS times,
fails it with that reason.
"""
import atexit
import contextlib
import datetime as dt
import functools
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from corpus_admin.batch_ingest import FileToIngest, default_parse_workers, ingest_files
from corpus_admin.ingestion import (
    FAILED,
    IngestResult,
    max_upload_bytes,
    over_the_cap,
    pending_sources,
    source_key,
)
from corpus_admin.models import IngestJob, JobStatus, Source
from corpus_admin.parsing import base_name
from corpus_admin.paths import BadPath
from corpus_admin.sandbox import ParsePool

logger = logging.getLogger(__name__)


QUEUED = "queued"  # an IngestResult's outcome while its file waits for, or is with, the worker
JOBS_PER_TASK = 100  # files of an upload one task ingests, parsed side by side, stored STORE_BATCH at a time
STORE_BATCH = 20  # per transaction: the next batch parses while one is stored


@dataclass(frozen=True)
class IncomingFile:
    """One file of an upload: its name, its path in the folder or archive it came from (None: a file on its own,
    keyed by its name), its size, and how to read it (not read when over the cap); a re-ingest's also its own date
    and `force` (a new version of the same content)."""

    file_name: str
    path: str | None
    size: int
    read: Callable[[], bytes]
    document_date: dt.date | None = None
    force: bool = False


@dataclass(frozen=True)
class IngestDetails:
    """What the upload form says about the files of a batch; None keeps what the source has."""

    audience: str | None = None
    title: str | None = None
    document_date: dt.date | None = None


@dataclass(frozen=True)
class QueuedBatch:
    """An upload's files as queued: the batch they wait in, and their jobs in the order given."""

    batch: uuid.UUID
    job_ids: tuple[int, ...]


def enqueue_ingest(*, files: Sequence[IncomingFile], details: IngestDetails) -> QueuedBatch:
    """Queue each file for the worker and return the batch, before any file is parsed.

    A new source is created PENDING, with no version (so callers see nothing of it yet); a file over the size cap, or
    whose path cannot be a key, fails at once with the reason. Two commits and a few queries for the whole upload,
    and one insert per file for the task framework's database backend.
    """
    batch = uuid.uuid4()
    cap = max_upload_bytes()
    contents = [b"" if incoming.size > cap else incoming.read() for incoming in files]  # before the write lock
    keys: list[tuple[str, str] | BadPath] = []
    for incoming in files:
        try:
            keys.append(source_key(file_name=incoming.file_name, path=incoming.path))
        except BadPath as error:
            keys.append(error)
    with transaction.atomic():
        sources = pending_sources(keys=[key for key in keys if not isinstance(key, BadPath)], audience=details.audience)
        jobs = IngestJob.objects.bulk_create(
            _job(batch, incoming, content, key, sources, details)
            for incoming, content, key in zip(files, contents, keys, strict=True)
        )
        for job, incoming, key in zip(jobs, files, keys, strict=True):
            if isinstance(key, BadPath):  # no source can have that key: the job records the refusal
                _finish(job, IngestResult(job.path, FAILED, error=str(key)))
            elif incoming.size > cap:
                _finish(job, IngestResult(job.path, FAILED, job.source_id, error=over_the_cap(job.path, incoming.size)))
    queued = [job for job, incoming, key in zip(jobs, files, keys, strict=True)
              if not isinstance(key, BadPath) and incoming.size <= cap]
    # After the jobs' commit, so that a worker on another connection finds each job when it takes its task; together,
    # except with the immediate backend, which ingests each file as it is enqueued (one transaction each).
    with contextlib.nullcontext() if _ingests_on_enqueue() else transaction.atomic():
        for start in range(0, len(queued), JOBS_PER_TASK):  # a task for each JOBS_PER_TASK files
            group = queued[start:start + JOBS_PER_TASK]
            task_id = ingest_job.enqueue(*(job.pk for job in group)).id  # the immediate backend runs it here and now
            for job in group:
                job.task_id = task_id
        IngestJob.objects.bulk_update(queued, ["task_id"], batch_size=500)
    return QueuedBatch(batch, tuple(job.pk for job in jobs))


def enqueue_reingest(sources: Sequence[Source]) -> tuple[QueuedBatch, list[IngestResult]]:
    """Queue the latest stored upload of each source for the worker to ingest again as a new version (even if its
    content is the one served); a source with no stored upload fails at once with the reason."""
    files: list[IncomingFile] = []
    refused: list[IngestResult] = []
    for source in sources:
        upload = source.uploads.first()
        if upload is None:
            refused.append(IngestResult(source.path, FAILED, source.pk, error=f"{source.path}: no stored upload"))
            continue
        content = bytes(upload.content)
        files.append(IncomingFile(source.original_name, source.path, len(content), functools.partial(bytes, content),
                                  document_date=upload.document_date, force=True))
    return enqueue_ingest(files=files, details=IngestDetails()), refused


def job_results(job_ids: Sequence[int]) -> list[IngestResult]:
    """Each job's outcome as ingestion reports one, in the order given: QUEUED while the worker has yet to finish it."""
    jobs = IngestJob.objects.defer("content").in_bulk(job_ids)
    return [_result(jobs[job_id]) for job_id in job_ids]


@task()
def ingest_job(job_id: int, *more_job_ids: int) -> str:
    """Ingest queued files, up to JOBS_PER_TASK of one upload: parsed side by side, stored together (the worker's unit
    of work). Returns the first job's outcome, or why nothing was done."""
    jobs = _claim([job_id, *more_job_ids])
    if not jobs:
        return "not queued"  # finished, or taken by another run of the same task
    try:
        with _heartbeat([job.pk for job in jobs]):
            results = ingest_files([_file_of(job) for job in jobs], workers=default_parse_workers(),
                                   batch_size=STORE_BATCH, pool=_parse_pool())
    except Exception as error:  # ingest_files reports bad files as results: this is the database or a bug
        for job in jobs:
            _retry_or_fail(job, f"{job.path}: ingest failed ({type(error).__name__}: {error})")
        raise
    with transaction.atomic():  # one commit for the task's jobs
        for job, result in zip(jobs, results, strict=True):
            _finish(job, result)
    return results[0].outcome


def recover_stalled_jobs(*, now: dt.datetime | None = None, alive_worker: str = "") -> int:
    """Queue again each job left running by a worker that stopped, or fail it once out of attempts; enqueue each
    queued job that never reached the queue (its process stopped in between). Returns how many jobs it touched.

    A worker that is alive passes its own name, so that its running jobs are never taken for stalled ones.
    """
    now = now or timezone.now()
    cutoff = now - dt.timedelta(seconds=settings.RAG_INGEST_STALE_S)
    touched = 0
    stalled = IngestJob.objects.defer("content").filter(status=JobStatus.RUNNING, heartbeat_at__lt=cutoff)
    for job in stalled.exclude(worker=alive_worker) if alive_worker else stalled:
        _abandon_task(job.task_id, now=now)
        reason = (
            f"{job.path}: the worker stopped while ingesting "
            f"(attempt {job.attempts} of {settings.RAG_INGEST_ATTEMPTS})"
        )
        touched += _retry_or_fail(job, reason, now=now)
    for job_id in IngestJob.objects.filter(status=JobStatus.QUEUED, task_id="", queued_at__lt=cutoff).values_list(
        "pk", flat=True
    ):
        _enqueue(job_id)
        touched += 1
    return touched


def worker_name() -> str:
    """This process, as a job records who ran it."""
    return f"{socket.gethostname()}:{os.getpid()}"[:100]


def _job(
    batch: uuid.UUID,
    incoming: IncomingFile,
    content: bytes,
    key: tuple[str, str] | BadPath,
    sources: dict[str, Source],
    details: IngestDetails,
) -> IngestJob:
    """A queued file's job row, its source found or made by pending_sources (none for a path that is no key)."""
    source = None if isinstance(key, BadPath) else sources[key[0]]
    path = (incoming.path or incoming.file_name) if source is None else source.path
    return IngestJob(
        batch=batch,
        path=path[:500],
        original_name=base_name(incoming.file_name)[:255],
        content=content if source is not None else b"",
        size=incoming.size,
        audience=details.audience or "",
        title=details.title or "",
        document_date=incoming.document_date or details.document_date,
        force=incoming.force,
        source=source,
    )


def _ingests_on_enqueue() -> bool:
    return isinstance(ingest_job.get_backend(), ImmediateBackend)


def _result(job: IngestJob) -> IngestResult:
    if job.status in (JobStatus.QUEUED, JobStatus.RUNNING):
        return IngestResult(job.path, QUEUED, job.source_id)
    return IngestResult(job.path, job.outcome, job.source_id, job.version, job.chunk_count, job.error)


def _enqueue(job_id: int) -> None:
    result = ingest_job.enqueue(job_id)  # the immediate backend runs it here and now
    IngestJob.objects.filter(pk=job_id).update(task_id=result.id)


def _claim(job_ids: Sequence[int]) -> list[IngestJob]:
    """Mark those of the jobs that are queued running for this worker, counting the attempt; in the order given.

    Each row is claimed only while queued, so a job another worker took meanwhile is not among those returned.
    """
    now = timezone.now()
    me = worker_name()
    IngestJob.objects.filter(pk__in=job_ids, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING,
        attempts=F("attempts") + 1,
        started_at=now,
        heartbeat_at=now,
        finished_at=None,
        worker=me,
    )
    taken = IngestJob.objects.filter(pk__in=job_ids, status=JobStatus.RUNNING, worker=me, started_at=now).in_bulk()
    return [taken[job_id] for job_id in job_ids if job_id in taken]


def _file_of(job: IngestJob) -> FileToIngest:
    return FileToIngest(
        file_name=job.original_name,
        path=job.path,
        size=len(job.content),
        read=lambda: bytes(job.content),
        audience=job.audience or None,
        title=job.title or None,
        document_date=job.document_date,
        force=job.force,
    )


def _parse_pool() -> ParsePool:
    """This process's parse workers for the jobs it runs, started once (the first parse starts each worker)."""
    global _pool
    if _pool is None:
        _pool = ParsePool(default_parse_workers())
        atexit.register(_pool.close)
    return _pool


_pool: ParsePool | None = None


def _finish(job: IngestJob, result: IngestResult) -> None:
    """Record what ingesting the job did, and a failure on its source; the bytes are no longer needed."""
    with transaction.atomic():
        IngestJob.objects.filter(pk=job.pk).update(
            status=JobStatus.FAILED if result.failed else JobStatus.DONE,
            outcome=result.outcome,
            version=result.version,
            chunk_count=result.chunk_count,
            error=result.error,
            source_id=result.source_id or job.source_id,
            content=b"",
            finished_at=timezone.now(),
        )
        if result.failed:
            _record_source_failure(job.source_id, result.error)


def _retry_or_fail(job: IngestJob, reason: str, *, now: dt.datetime | None = None) -> bool:
    """Queue a job that did not finish again, or fail it with the reason once out of attempts.

    Only if it is still running the attempt this job row read (another recovery may have got there first).
    """
    now = now or timezone.now()
    same_attempt = IngestJob.objects.filter(pk=job.pk, status=JobStatus.RUNNING, attempts=job.attempts)
    if job.attempts < settings.RAG_INGEST_ATTEMPTS:
        if not same_attempt.update(status=JobStatus.QUEUED, error=f"{reason}; queued again", heartbeat_at=None):
            return False
        logger.warning("%s; queued again", reason)
        _enqueue(job.pk)
        return True
    with transaction.atomic():
        if not same_attempt.update(status=JobStatus.FAILED, outcome=FAILED, error=reason, content=b"", finished_at=now):
            return False
        _record_source_failure(job.source_id, reason)
    logger.error("%s; failed", reason)
    return True


def _record_source_failure(source_id: int | None, message: str) -> None:
    """A failure's reason on the source, which goes on serving what it served. A source never served (made when its
    file was queued) is removed unless another of its files waits: a rejected new file leaves no source behind, only
    its job with the reason (the job keeps its path; call after the job is finished)."""
    if source_id is None:
        return
    sources = Source.objects.filter(pk=source_id)
    never_served = sources.filter(version=0).exclude(
        ingest_jobs__status__in=[JobStatus.QUEUED, JobStatus.RUNNING]
    ).exclude(chunks__isnull=False).exclude(uploads__isnull=False)
    if not never_served.delete()[0]:
        sources.update(last_error=message, changed_at=timezone.now())


def _abandon_task(task_id: str, *, now: dt.datetime) -> None:
    """Mark the database backend's row of a stopped worker's task failed: that backend never looks at it again."""
    if task_id and isinstance(ingest_job.get_backend(), DatabaseBackend):
        DBTaskResult.objects.filter(id=task_id, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.FAILED, finished_at=now, exception_class_path="", traceback="the worker stopped"
        )


@contextlib.contextmanager
def _heartbeat(job_ids: Sequence[int]) -> Iterator[None]:
    """Stamp the jobs every quarter of RAG_INGEST_STALE_S while the block runs, from a thread of its own."""
    every = settings.RAG_INGEST_STALE_S / 4
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(every):
                try:
                    IngestJob.objects.filter(pk__in=job_ids, status=JobStatus.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except DatabaseError as error:  # SQLite busy with the ingest's own write: the next beat tries again
                    logger.warning("Heartbeat of ingest jobs %s missed: %s", list(job_ids), error)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"ingest-heartbeat-{job_ids[0]}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
