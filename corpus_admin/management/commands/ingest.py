"""manage.py ingest PATH... [--audience A]: ingest files and folders with a progress bar and a summary."""
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from corpus_admin.folders import files_under
from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, IngestResult, ingest_upload, refuse_repeated_names
from corpus_admin.models import Audience


def collect_files(paths: list[str]) -> list[Path]:
    """Expand files and folders (recursively) into a sorted list of files, skipping hidden ones."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(files_under(path))
        elif path.is_file():
            found.append(path)
        else:
            raise CommandError(f"{raw}: no such file or folder")
    return found


class Command(BaseCommand):
    help = "Ingest files and folders (recursively) into the corpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="Files or folders to ingest.")
        parser.add_argument("--audience", choices=Audience.values, help="Audience for new and updated sources.")

    def handle(self, *args, **options) -> None:
        files = collect_files(options["paths"])
        refused = refuse_repeated_names([(path.name, str(path)) for path in files])
        results: list[IngestResult] = []
        started = time.monotonic()
        with tqdm(files, desc="Ingesting", unit="file", file=self.stderr, disable=not files) as bar:
            for position, path in enumerate(bar):
                bar.set_postfix_str(path.name[:40])
                if position in refused:
                    results.append(refused[position])
                    continue
                results.append(
                    ingest_upload(
                        file_name=path.name,
                        size=path.stat().st_size,
                        read=path.read_bytes,
                        audience=options["audience"],
                    )
                )
        self._print_summary(results, seconds=time.monotonic() - started)
        if any(r.failed for r in results):
            raise SystemExit(1)

    def _print_summary(self, results: list[IngestResult], *, seconds: float) -> None:
        counts = {
            outcome: sum(r.outcome == outcome for r in results) for outcome in (ADDED, UPDATED, UNCHANGED, FAILED)
        }
        chunks = sum(r.chunk_count for r in results if r.outcome in (ADDED, UPDATED))
        self.stdout.write(
            f"{counts[ADDED]} added, {counts[UPDATED]} updated, {counts[UNCHANGED]} unchanged, "
            f"{counts[FAILED]} failed ({chunks} new chunks)"
        )
        seconds = max(seconds, 1e-6)
        self.stdout.write(
            f"{len(results)} files in {seconds:.1f} s: {len(results) / seconds:.1f} files/s, "
            f"{chunks / seconds:.0f} chunks/s"
        )
        for result in results:
            if result.failed:
                self.stdout.write(self.style.ERROR(f"  failed: {result.error}"))
