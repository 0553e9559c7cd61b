"""manage.py load_demo: ingest the demo corpus with its titles, audiences and dates (idempotent)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from corpus_admin.folders import read_manifest
from corpus_admin.ingestion import ADDED, UPDATED, ingest_file

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo" / "documents"


class Command(BaseCommand):
    help = "Load the demo corpus; running it again changes nothing."

    def handle(self, *args, **options) -> None:
        manifest = read_manifest(DEMO_DIR)
        changed, failed = 0, []
        for file_name, details in sorted(manifest.items()):
            if isinstance(details, str):  # an entry that could not be read
                failed.append(f"{file_name}: {details}")
                continue
            result = ingest_file(
                file_name=Path(file_name).name,
                path=file_name,
                content=(DEMO_DIR / file_name).read_bytes(),
                audience=details.audience,
                title=details.title,
                document_date=details.updated_on,
            )
            changed += result.outcome in (ADDED, UPDATED)
            if result.failed:
                failed.append(result.error)
        self.stdout.write(f"Demo corpus: {len(manifest)} documents, {changed} added or updated.")
        if failed:
            raise CommandError("Demo documents failed to ingest:\n" + "\n".join(failed))
