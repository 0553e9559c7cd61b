"""manage.py ingest PATH... [--audience A] [--root DIR] [--jobs N]: ingest files and folders with a progress bar and a
summary."""
import time
from dataclasses import dataclass
from pathlib import Path

from django.core.checks import Tags
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from corpus_admin.batch_ingest import FileToIngest, default_parse_workers, ingest_files
from corpus_admin.folders import (
    MANIFEST,
    FileDetails,
    ManifestError,
    files_under,
    is_supported,
    named_details,
    read_manifest,
    skipped_summary,
)
from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, IngestResult, refuse_repeated_paths
from corpus_admin.models import Audience


@dataclass(frozen=True)
class FoundFile:
    """A file to ingest: where it is, its key (its path in the folder named, or under --root; a file named alone, its
    name), and what the audiences.json of its folder says about it (None: nothing; a str: why its entry is refused)."""

    disk: Path
    key: str
    details: FileDetails | str | None = None


def collect_files(paths: list[str], *, root: str | None = None) -> tuple[list[FoundFile], list[str]]:
    """Expand files and folders (recursively, without hidden files and a folder's own audiences.json) into the files to
    ingest, and the folders' files skipped for their type (a file named on its own is never skipped: its ingest says
    why it is refused). A file named on its own is keyed by its path relative to `root`, else by its name."""
    found: list[FoundFile] = []
    skipped: list[str] = []
    base = Path(root).resolve() if root is not None else None
    if base is not None and not base.is_dir():
        raise CommandError(f"--root {root}: no such folder")
    alone: list[tuple[Path, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            keys = {}
            for file in files_under(path):
                if file == path / MANIFEST:
                    continue
                relative = file.relative_to(path).as_posix()
                if is_supported(relative):
                    keys[relative] = file
                else:
                    skipped.append(relative)
            details = named_details(_manifest(path), keys)
            found.extend(FoundFile(file, key, details.get(key)) for key, file in keys.items())
        elif path.is_file():
            alone.append((path, _key_under(path, base, raw) if base is not None else path.name))
        else:
            raise CommandError(f"{raw}: no such file or folder")
    details = named_details(_manifest(base), [key for _, key in alone]) if base is not None else {}
    found.extend(FoundFile(path, key, details.get(key)) for path, key in alone)
    return found, skipped


def _manifest(folder: Path) -> dict[str, FileDetails | str]:
    try:
        return read_manifest(folder)
    except ManifestError as error:
        raise CommandError(str(error)) from None


def _key_under(path: Path, root: Path, raw: str) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise CommandError(f"{raw}: not under --root {root}") from None


class Command(BaseCommand):
    # The model checks and corpus_admin's own (OCR): the URL checks import the whole site, 2-3 s of every run.
    requires_system_checks = [Tags.models, "corpus_admin"]
    help = (
        "Ingest files and folders (recursively) into the corpus. A folder's files are keyed by their path in it, "
        "and those of unsupported types are skipped; its audiences.json, if any, gives files their audience, title "
        "and date, as for load_demo and evaluate. A file named on its own is keyed by its name, or by its path "
        "under --root."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="Files or folders to ingest.")
        parser.add_argument(
            "--audience", choices=Audience.values,
            help=f"Audience for new and updated sources that the folder's {MANIFEST} does not name.",
        )
        parser.add_argument(
            "--root", help=f"Key files named on their own by their path under this folder (and read its {MANIFEST}).",
        )
        parser.add_argument(
            "--jobs", type=int, default=default_parse_workers(),
            help="Files parsed at once, each in a parse worker with the usual time and memory limits "
            "(default: one per processor, at most 4).",
        )

    def handle(self, *args, **options) -> None:
        if options["jobs"] < 1:
            raise CommandError("--jobs must be at least 1")
        files, skipped = collect_files(options["paths"], root=options["root"])
        refused = refuse_repeated_paths([(file.key, str(file.disk)) for file in files])
        results: list[IngestResult] = []
        wanted: list[FoundFile] = []
        for position, file in enumerate(files):
            if position in refused:
                results.append(refused[position])
            elif isinstance(file.details, str):  # an audiences.json entry that cannot be used: never a guess
                results.append(IngestResult(file.key, FAILED, error=f"{file.key}: {file.details}"))
            else:
                wanted.append(file)
        started = time.monotonic()
        with tqdm(total=len(files), desc="Ingesting", unit="file", file=self.stderr, disable=not files) as bar:
            bar.update(len(results))

            def progress(result: IngestResult) -> None:
                bar.set_postfix_str(result.path[-40:])
                bar.update()

            results.extend(ingest_files([self._to_ingest(file, options["audience"]) for file in wanted],
                                        workers=options["jobs"], on_result=progress))
        self._print_summary(results, skipped=skipped, seconds=time.monotonic() - started)
        if any(r.failed for r in results):
            raise SystemExit(1)

    @staticmethod
    def _to_ingest(file: FoundFile, audience: str | None) -> FileToIngest:
        details = file.details if isinstance(file.details, FileDetails) else None
        return FileToIngest(
            file_name=file.disk.name,
            path=file.key,
            size=file.disk.stat().st_size,
            read=file.disk.read_bytes,
            audience=details.audience if details else audience,
            title=details.title if details else None,
            document_date=details.updated_on if details else None,
        )

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

