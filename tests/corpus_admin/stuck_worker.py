"""`manage.py ingest_worker ARGS` whose parser never returns, run as a script: the tests kill it halfway through a job.

Parsing runs in this process (RAG_PARSE_ISOLATION=false in its environment), so killing it leaves nothing behind.
"""
import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rag_site.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from corpus_admin import ingestion  # noqa: E402


def parse_forever(**kwargs) -> None:
    """A parse that never ends: the job stays running until the process is killed."""
    threading.Event().wait()


ingestion.parse_and_chunk = parse_forever  # type: ignore[assignment]
call_command("ingest_worker", *sys.argv[1:])
