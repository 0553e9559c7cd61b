"""manage.py ingest PATH... [--audience A]: ingest files and folders with a progress bar and a summary."""
import time
from dataclasses import dataclass
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from corpus_admin.folders import files_under, is_supported, skipped_summary
from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, IngestResult, ingest_upload, refuse_repeated_paths
from corpus_admin.models import Audience


@dataclass(frozen=True)
class FoundFile:
    """A file to ingest: where it is, and its key (its path in the folder named; a file named alone, its name)."""

    disk: Path
    key: str


def collect_files(paths: list[str]) -> tuple[list[FoundFile], list[str]]:
    """Expand files and folders (recursively, without hidden files) into the files to ingest, and the folders' files
    skipped for their type (a file named on its own is never skipped: its ingest says why it is refused)."""
    found: list[FoundFile] = []
    skipped: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for file in files_under(path):
                relative = file.relative_to(path).as_posix()
                if is_supported(relative):
                    found.append(FoundFile(file, relative))
                else:
                    skipped.append(relative)
        elif path.is_file():
            found.append(FoundFile(path, path.name))
        else:
            raise CommandError(f"{raw}: no such file or folder")
    return found, skipped


class Command(BaseCommand):
    help = (
        "Ingest files and folders (recursively) into the corpus. A folder's files are keyed by their path in it, "
        "and those of unsupported types are skipped; a file named on its own is keyed by its name."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="Files or folders to ingest.")
        parser.add_argument("--audience", choices=Audience.values, help="Audience for new and updated sources.")

    def handle(self, *args, **options) -> None:
        files, skipped = collect_files(options["paths"])
        refused = refuse_repeated_paths([(file.key, str(file.disk)) for file in files])
        results: list[IngestResult] = []
        started = time.monotonic()
        with tqdm(files, desc="Ingesting", unit="file", file=self.stderr, disable=not files) as bar:
            for position, file in enumerate(bar):
                bar.set_postfix_str(file.key[-40:])
                if position in refused:
                    results.append(refused[position])
                    continue
                results.append(
                    ingest_upload(
                        file_name=file.disk.name,
                        path=file.key,
                        size=file.disk.stat().st_size,
                        read=file.disk.read_bytes,
                        audience=options["audience"],
                    )
                )
        self._print_summary(results, skipped=skipped, seconds=time.monotonic() - started)
        if any(r.failed for r in results):
            raise SystemExit(1)

    def _print_summary(self, results: list[IngestResult], *, skipped: list[str], seconds: float) -> None:
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
        if skipped:
            self.stdout.write(skipped_summary(skipped))
        for result in results:
            if result.failed:
                self.stdout.write(self.style.ERROR(f"  failed: {result.error}"))
