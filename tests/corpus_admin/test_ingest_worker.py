"""The ingest worker as a real process: a worker killed halfway through a job leaves the previous version served, and
the next worker to start retries the job, or fails it with the reason once it is out of attempts. On the database
queue, and on Redis (RQ, on the local Redis's database 13) when one answers."""
import datetime as dt
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from corpus_admin.models import IngestJob, JobStatus, Source, SourceStatus
from corpus_admin.selectors import chunk_records
from corpus_admin.tasks import IncomingFile, IngestDetails, enqueue_ingest
from corpus_admin.testing import DATABASE_TASKS

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/13"
RQ_TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
STUCK_WORKER = Path(__file__).resolve().parent / "stuck_worker.py"
STALE_S = 1.0

FAQ_V1 = b"# FAQ\n\nRefunds are paid within 14 days of the request.\n"
FAQ_V2 = b"# FAQ\n\nRefunds are paid within 30 days of the request.\n"


def database_url(config: dict) -> str:
    """The URL of the test database, for a worker in another process."""
    if config["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{config['NAME']}"
    credentials = config["USER"] + (f":{config['PASSWORD']}" if config["PASSWORD"] else "")
    return f"postgres://{credentials}@{config['HOST']}:{config['PORT'] or 5432}/{config['NAME']}"


def redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=1).ping())
    except redis.RedisError:
        return False


def worker_env(backend: str, attempts: int) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "REDIS_URL": REDIS_URL if backend == "rq" else "",
        "RAG_TASKS_BACKEND": backend,
        "RAG_INGEST_STALE_S": str(STALE_S),
        "RAG_INGEST_ATTEMPTS": str(attempts),
        "RAG_PARSE_ISOLATION": "false",
        "TIKTOKEN_CACHE_DIR": "",
    }


def wait_until(condition: Callable[[], bool], *, within: float, what: str) -> None:
    """Poll until condition() holds, failing the test past the deadline."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"not within {within} s: {what}")
        time.sleep(0.05)


def job_status() -> str:
    return IngestJob.objects.get().status


def heartbeat_stale() -> bool:
    beat = IngestJob.objects.get().heartbeat_at
    return beat is not None and timezone.now() - beat > dt.timedelta(seconds=STALE_S)


@pytest.fixture
def backend(request, settings) -> str:
    """Tasks queued in the database, or in Redis for RQ (an empty queue on the local Redis's database 13)."""
    if request.param == "database":
        settings.TASKS = DATABASE_TASKS
        return "database"
    if not redis_answers():
        pytest.skip(f"no Redis at {REDIS_URL}")
    import django_rq

    settings.TASKS = RQ_TASKS
    settings.RQ_QUEUES = {"default": {"URL": REDIS_URL}}
    django_rq.get_queue("default").empty()
    return "rq"


@pytest.fixture
def served_v1_and_v2_queued(transactional_db, backend, ingest) -> IngestJob:
    """faq.md served at version 1, and version 2 queued for a worker in another process."""
    ingest("faq.md", FAQ_V1)
    enqueue_ingest(files=[IncomingFile("faq.md", None, len(FAQ_V2), lambda: FAQ_V2)], details=IngestDetails())
    return IngestJob.objects.get()


def kill_worker_halfway(env: dict[str, str], log: Path) -> None:
    """Start a worker whose parse never ends, wait until it is ingesting the job, and SIGKILL it."""
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, str(STUCK_WORKER), "--interval", "0.05"], cwd=ROOT, env=env, stdout=out, stderr=out
        )
    try:
        wait_until(lambda: job_status() == JobStatus.RUNNING, within=60, what=f"the worker took the job ({log})")
        served = [record.chunk_id for record in chunk_records()]
        assert served == ["faq-v1-c01"]  # while it ingests
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)


def start_next_worker(env: dict[str, str]) -> str:
    """Run `manage.py ingest_worker --batch` to the end and return what it printed."""
    finished = subprocess.run(
        [sys.executable, "manage.py", "ingest_worker", "--batch"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    return finished.stdout


@pytest.mark.parametrize(
    ("backend", "attempts"), [("database", 3), ("database", 1), ("rq", 3)], indirect=["backend"]
)
def test_a_worker_killed_halfway_leaves_the_previous_version_served(
    served_v1_and_v2_queued, backend, attempts, tmp_path
):
    env = worker_env(backend, attempts)

    kill_worker_halfway(env, tmp_path / "stuck-worker.log")

    job = IngestJob.objects.get()
    source = Source.objects.get()
    assert (job.status, job.attempts) == (JobStatus.RUNNING, 1)
    assert (source.status, source.version) == (SourceStatus.READY, 1)
    assert [record.chunk_id for record in chunk_records()] == ["faq-v1-c01"]

    wait_until(heartbeat_stale, within=30, what="the killed worker's heartbeat went stale")
    printed = start_next_worker(env)

    job.refresh_from_db()
    source.refresh_from_db()
    assert "Recovered 1 ingest job(s) that a stopped worker had left." in printed
    if attempts > 1:
        assert (job.status, job.attempts, job.version) == (JobStatus.DONE, 2, 2)
        assert [record.chunk_id for record in chunk_records()] == ["faq-v2-c01"]
    else:
        assert job.status == JobStatus.FAILED
        assert job.error == "faq.md: the worker stopped while ingesting (attempt 1 of 1)"
        assert (source.status, source.version, source.last_error) == (SourceStatus.READY, 1, job.error)
        assert [record.chunk_id for record in chunk_records()] == ["faq-v1-c01"]


def test_the_worker_command_has_nothing_to_run_with_the_immediate_backend(settings):
    settings.RAG_TASKS_BACKEND = "immediate"
    out = io.StringIO()

    call_command("ingest_worker", stdout=out)

    assert "uploads are ingested in their request; no worker runs" in out.getvalue()
