"""Ingestion off the request path: files queued as jobs, ingested by the worker, stalled jobs retried or failed."""
import datetime as dt
import time

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from corpus_admin import ingestion
from corpus_admin.models import Chunk, IngestJob, JobStatus, Source, SourceStatus
from corpus_admin.sandbox import ParsePool
from corpus_admin.selectors import chunk_records
from corpus_admin.tasks import IncomingFile, IngestDetails, enqueue_ingest, ingest_job, recover_stalled_jobs
from corpus_admin.testing import DATABASE_TASKS, run_queued_tasks

pytestmark = pytest.mark.django_db

FAQ_V1 = b"# FAQ\n\nRefunds are paid within 14 days of the request.\n"
FAQ_V2 = b"# FAQ\n\nRefunds are paid within 30 days of the request.\n"


@pytest.fixture
def database_queue(settings) -> None:
    """The default backend: tasks wait in the database until a worker runs them."""
    settings.TASKS = DATABASE_TASKS


def incoming(path: str, content: bytes) -> IncomingFile:
    """A file on its own (keyed by its name), or one at that path in a folder or archive."""
    return IncomingFile(path.rsplit("/", 1)[-1], path if "/" in path else None, len(content), lambda: content)


def queue(*files: tuple[str, bytes], **details) -> list[IngestJob]:
    queued = enqueue_ingest(files=[incoming(*file) for file in files], details=IngestDetails(**details))
    return [IngestJob.objects.get(pk=job_id) for job_id in queued.job_ids]


def stall(job: IngestJob, *, attempts: int, minutes_ago: int = 60) -> IngestJob:
    """What a worker killed while ingesting the job leaves: the job running, its heartbeat long stopped."""
    beat = timezone.now() - dt.timedelta(minutes=minutes_ago)
    IngestJob.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING, attempts=attempts, started_at=beat, heartbeat_at=beat, worker="gone:1"
    )
    return IngestJob.objects.get(pk=job.pk)


def test_queued_new_files_are_pending_sources_that_no_caller_sees(database_queue, client):
    jobs = queue(("faq.md", FAQ_V1), ("backup.txt", b"Backups run every 6 hours."))

    assert [job.status for job in jobs] == [JobStatus.QUEUED, JobStatus.QUEUED]
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # one task for the upload's files
    assert {(s.path, s.status, s.version) for s in Source.objects.all()} == {
        ("faq.md", SourceStatus.PENDING, 0),
        ("backup.txt", SourceStatus.PENDING, 0),
    }
    assert list(chunk_records()) == []
    assert "Faq" not in client.get("/library/").content.decode()


def test_the_worker_ingests_each_queued_file_and_marks_its_source_ready(database_queue, client):
    jobs = queue(("faq.md", FAQ_V1), ("backup.txt", b"Backups run every 6 hours."), audience="partner")

    run_queued_tasks()

    done = IngestJob.objects.filter(pk__in=[job.pk for job in jobs])
    assert {(j.status, j.outcome, j.version, j.attempts, bytes(j.content)) for j in done} == {
        (JobStatus.DONE, ingestion.ADDED, 1, 1, b"")
    }
    faq = Source.objects.get(path="faq.md")
    assert (faq.status, faq.version, faq.title, faq.audience) == (SourceStatus.READY, 1, "FAQ", "partner")
    assert {record.chunk_id for record in chunk_records()} == {"faq-v1-c01", "backup-v1-c01"}
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1


def test_a_rejected_new_file_leaves_no_source_only_its_job_with_the_reason(database_queue):
    (job,) = queue(("deck.pptx", b"PK\x03\x04zip"))

    run_queued_tasks()

    job.refresh_from_db()
    assert (job.status, job.path, job.source) == (JobStatus.FAILED, "deck.pptx", None)
    assert job.error.startswith("deck.pptx: ")
    assert not Source.objects.exists() and not Chunk.objects.exists()


def test_a_rejected_new_file_keeps_its_source_while_another_of_its_files_waits(database_queue):
    queue(("deck.pptx", b"PK\x03\x04zip"))
    queue(("deck.pptx", b"PK\x03\x04zip again"))
    first = IngestJob.objects.order_by("pk").first()

    ingest_job.call(first.pk)

    source = Source.objects.get()
    assert (source.status, source.version) == (SourceStatus.PENDING, 0)
    assert source.last_error.startswith("deck.pptx: ")


def test_a_failed_new_version_leaves_the_served_one_ready(database_queue, ingest):
    ingest("faq.md", FAQ_V1)

    (job,) = queue(("faq.md", b""))
    run_queued_tasks()

    job.refresh_from_db()
    source = Source.objects.get()
    assert job.status == JobStatus.FAILED
    assert (source.status, source.version, source.last_error) == (SourceStatus.READY, 1, job.error)
    assert [record.chunk_id for record in chunk_records()] == ["faq-v1-c01"]


def test_a_rejected_new_file_queued_again_is_a_pending_source_again(database_queue):
    queue(("deck.pptx", b"PK\x03\x04zip"))
    run_queued_tasks()

    queue(("deck.pptx", b"PK\x03\x04zip"))

    source = Source.objects.get()
    assert (source.status, source.last_error) == (SourceStatus.PENDING, "")


def test_a_file_over_the_cap_fails_at_once_without_being_read(database_queue, settings):
    settings.RAG_MAX_UPLOAD_MB = 1

    def read() -> bytes:
        raise AssertionError("a file over the cap was read")

    huge = IncomingFile("huge.txt", None, 3 * 1_048_576, read)

    queued = enqueue_ingest(files=[huge], details=IngestDetails())

    job = IngestJob.objects.get(pk=queued.job_ids[0])
    assert job.status == JobStatus.FAILED and job.task_id == ""
    assert job.error == "huge.txt: the file is 3.0 MB, over the 1 MB limit"
    assert not Source.objects.exists()  # a new file refused leaves only its job


def test_a_file_from_a_folder_is_keyed_by_its_path(database_queue):
    (job,) = queue(("ref/models/fields.txt", b"Fields\n======\n\nA field stores one value.\n"))

    run_queued_tasks()

    source = Source.objects.get()
    assert (source.path, source.original_name) == ("ref/models/fields.txt", "fields.txt")
    assert [record.chunk_id for record in chunk_records()] == ["ref-models-fields-v1-c01"]


def test_a_path_that_cannot_be_a_key_fails_at_once_and_makes_no_source(database_queue):
    (job,) = queue(("../etc/passwd", b"root"))

    assert (job.status, job.task_id) == (JobStatus.FAILED, "")
    assert "'..'" in job.error
    assert not Source.objects.exists()


def test_job_results_say_queued_until_the_worker_finishes(database_queue):
    from corpus_admin.tasks import QUEUED, job_results

    queued = enqueue_ingest(files=[incoming("faq.md", FAQ_V1), incoming("deck.pptx", b"PK")], details=IngestDetails())
    before = job_results(queued.job_ids)
    run_queued_tasks()
    after = job_results(queued.job_ids)

    assert [(r.path, r.outcome) for r in before] == [("faq.md", QUEUED), ("deck.pptx", QUEUED)]
    assert [(r.path, r.outcome, r.version) for r in after] == [
        ("faq.md", ingestion.ADDED, 1),
        ("deck.pptx", ingestion.FAILED, None),
    ]


def test_the_immediate_backend_ingests_within_the_call():
    (job,) = queue(("faq.md", FAQ_V1))

    assert (job.status, job.outcome, job.chunk_count) == (JobStatus.DONE, ingestion.ADDED, 1)
    assert Source.objects.get().status == SourceStatus.READY


def test_unchanged_content_is_done_without_a_new_version(ingest):
    ingest("faq.md", FAQ_V1)

    (job,) = queue(("faq.md", FAQ_V1))

    assert (job.status, job.outcome, job.version) == (JobStatus.DONE, ingestion.UNCHANGED, 1)


@pytest.mark.parametrize(
    ("attempts", "status", "error"),
    [
        (1, JobStatus.QUEUED, "faq.md: the worker stopped while ingesting (attempt 1 of 3); queued again"),
        (2, JobStatus.QUEUED, "faq.md: the worker stopped while ingesting (attempt 2 of 3); queued again"),
        (3, JobStatus.FAILED, "faq.md: the worker stopped while ingesting (attempt 3 of 3)"),
    ],
)
def test_a_job_whose_worker_stopped_is_queued_again_until_out_of_attempts(database_queue, attempts, status, error):
    (job,) = queue(("faq.md", FAQ_V1))
    stall(job, attempts=attempts)

    assert recover_stalled_jobs() == 1

    job.refresh_from_db()
    assert (job.status, job.error) == (status, error)
    queued_tasks = DBTaskResult.objects.filter(status="READY").count()
    assert queued_tasks == (2 if status == JobStatus.QUEUED else 1)
    sources = [(source.status, source.last_error) for source in Source.objects.all()]
    assert sources == ([] if status == JobStatus.FAILED else [(SourceStatus.PENDING, "")])  # none once new and failed


def test_a_job_queued_again_is_ingested_by_the_next_worker_run(database_queue, ingest):
    ingest("faq.md", FAQ_V1)
    (job,) = queue(("faq.md", FAQ_V2))
    stall(job, attempts=1)
    recover_stalled_jobs()

    run_queued_tasks()

    job.refresh_from_db()
    assert (job.status, job.attempts, job.version, job.error) == (JobStatus.DONE, 2, 2, "")
    assert [record.chunk_id for record in chunk_records()] == ["faq-v2-c01"]


def test_a_stalled_job_out_of_attempts_leaves_the_served_version(database_queue, ingest):
    ingest("faq.md", FAQ_V1)
    (job,) = queue(("faq.md", FAQ_V2))
    stall(job, attempts=3)

    recover_stalled_jobs()

    source = Source.objects.get()
    assert (source.status, source.version) == (SourceStatus.READY, 1)
    assert source.last_error == "faq.md: the worker stopped while ingesting (attempt 3 of 3)"
    assert [record.chunk_id for record in chunk_records()] == ["faq-v1-c01"]


def test_recovery_leaves_jobs_with_a_recent_heartbeat_and_the_live_workers_own(database_queue, settings):
    settings.RAG_INGEST_STALE_S = 120
    recent, own = queue(("recent.md", FAQ_V1), ("own.md", FAQ_V1))
    stall(recent, attempts=1, minutes_ago=1)
    stall(own, attempts=1, minutes_ago=60)

    assert recover_stalled_jobs(alive_worker="gone:1") == 0
    assert recover_stalled_jobs(now=timezone.now() + dt.timedelta(minutes=2), alive_worker="elsewhere:2") == 2


def test_the_stopped_workers_task_row_is_marked_failed(database_queue):
    (job,) = queue(("faq.md", FAQ_V1))
    DBTaskResult.objects.filter(id=job.task_id).update(status="RUNNING", started_at=timezone.now())
    stall(job, attempts=1)

    recover_stalled_jobs()

    assert DBTaskResult.objects.get(id=job.task_id).status == "FAILED"


def test_a_queued_job_that_never_reached_the_queue_is_enqueued(database_queue):
    (job,) = queue(("faq.md", FAQ_V1))
    DBTaskResult.objects.all().delete()
    IngestJob.objects.filter(pk=job.pk).update(task_id="", queued_at=timezone.now() - dt.timedelta(hours=1))

    assert recover_stalled_jobs() == 1

    assert DBTaskResult.objects.filter(status="READY").count() == 1
    run_queued_tasks()
    assert IngestJob.objects.get(pk=job.pk).status == JobStatus.DONE


@pytest.mark.django_db(transaction=True)
def test_a_running_job_keeps_its_heartbeat_fresh(settings, monkeypatch):
    settings.RAG_INGEST_STALE_S = 0.2  # a beat every 50 ms
    beats: list[dt.datetime] = []
    parse = ParsePool.parse_and_chunk

    def parse_once_the_heartbeat_moved(pool, **kwargs):
        job = IngestJob.objects.get()
        deadline = time.monotonic() + 10
        while (beat := IngestJob.objects.get().heartbeat_at) == job.started_at and time.monotonic() < deadline:
            time.sleep(0.01)  # waiting on the heartbeat thread, with a deadline
        beats.append(beat)
        connection.close()  # this parse thread's own
        return parse(pool, **kwargs)

    monkeypatch.setattr(ParsePool, "parse_and_chunk", parse_once_the_heartbeat_moved)

    (job,) = queue(("faq.md", FAQ_V1))

    assert job.status == JobStatus.DONE
    assert beats[0] > job.started_at


def test_one_task_ingests_an_uploads_files_together(database_queue, settings):
    jobs = queue(*((f"ref/page{n}.md", f"# Page {n}\n\nPage {n} says {n} things.".encode()) for n in range(4)))
    queue(("other.md", b"# Other\n\nAnother upload, another task."))

    run_queued_tasks()

    assert len({job.task_id for job in jobs}) == 1
    assert sorted(DBTaskResult.objects.values_list("return_value", flat=True)) == ["added", "added"]
    done = IngestJob.objects.filter(pk__in=[job.pk for job in jobs])
    assert {(job.status, job.outcome, job.attempts, job.version) for job in done} == {
        (JobStatus.DONE, ingestion.ADDED, 1, 1)
    }
    assert Source.objects.filter(status=SourceStatus.READY).count() == 5
