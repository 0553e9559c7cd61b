"""manage.py ingest_worker [--batch]: the background worker that ingests uploaded files (corpus_admin/tasks.py).

It first recovers the jobs that a stopped worker left running (queued again, or failed once out of attempts), then
runs the task framework's own worker for RAG_TASKS_BACKEND in this process: django-tasks-db's `db_worker`, or
django-rq's `rqworker` with RQ's in-process worker (so one parse worker serves every job, as in daphne). Meanwhile a
thread keeps recovering the jobs of other workers that stop. SIGTERM or Ctrl-C lets the job in hand finish first.
"""
import logging
import threading
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, connection

from corpus_admin.tasks import recover_stalled_jobs, worker_name

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Ingest the files uploaded in the admin, in the background."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", action="store_true", help="Ingest what is queued, then exit.")
        parser.add_argument(
            "--interval", type=float, default=1.0, help="Seconds between looks at an empty database queue (1)."
        )

    def handle(self, *args, batch: bool, interval: float, verbosity: int, **options) -> None:
        backend = settings.RAG_TASKS_BACKEND
        if backend == "immediate":  # `make run` starts the worker whatever the backend: nothing to do is no error
            self.stdout.write("RAG_TASKS_BACKEND is immediate: uploads are ingested in their request; no worker runs.")
            return
        recovered = recover_stalled_jobs()
        if recovered:
            self.stdout.write(f"Recovered {recovered} ingest job(s) that a stopped worker had left.")
        if not batch:
            threading.Thread(target=_recover_forever, name="ingest-recovery", daemon=True).start()
        if backend == "database":
            call_command(
                "db_worker", interval=interval, batch=batch, reload=False, startup_delay=False, verbosity=verbosity
            )
        else:
            call_command(
                "rqworker",
                "default",
                job_class="django_tasks_rq.Job",
                worker_class="rq.worker.SimpleWorker",
                burst=batch,
                verbosity=verbosity,
            )


def _recover_forever() -> None:
    """Every half of RAG_INGEST_STALE_S, recover the jobs of workers that stopped (never this one's)."""
    me = worker_name()
    while True:
        time.sleep(settings.RAG_INGEST_STALE_S / 2)
        try:
            recover_stalled_jobs(alive_worker=me)
        except DatabaseError as error:  # SQLite busy with an ingest's write: the next round tries again
            logger.warning("Recovering stalled ingest jobs failed: %s", error)
            connection.close()
