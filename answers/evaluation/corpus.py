"""A throwaway database for an evaluation corpus: created beside the site's, filled from a folder, then dropped."""
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connections

from answers.retrieval.holder import index_holder, refresh_now
from corpus_admin.folders import MANIFEST, ManifestError, details_by_path, files_under, is_supported, read_manifest
from corpus_admin.ingestion import ingest_upload, refuse_repeated_paths


class CorpusError(ValueError):
    """A corpus folder that cannot be read as a whole (missing, or a broken audiences.json)."""


@dataclass(frozen=True)
class CorpusLoad:
    """What ingesting a corpus folder did: files ingested, files that failed (with why), files skipped; each named by
    its path in the folder, which is its source's key."""

    ingested: tuple[str, ...]
    failed: tuple[tuple[str, str], ...]
    skipped: tuple[str, ...]


@contextmanager
def throwaway_database(alias: str = DEFAULT_DB_ALIAS) -> Iterator[str]:
    """Switch the connection to a new, migrated, empty database; drop it and switch back on exit.

    Django's test-database machinery does the work on SQLite and PostgreSQL alike. The throwaway gets its own
    name (a temp file, or rag_eval_<pid>_<random>), so it never clobbers the site's database nor, under pytest, the
    test database. If this process already held an index of the site's corpus, it is rebuilt from the restored
    database at once on exit: a large throwaway corpus would otherwise stay served while a background rebuild runs.
    A process without one (the evaluate command) leaves the site's database unread: it may not even exist yet.
    """
    had_index = index_holder().snapshot is not None
    connection = connections[alias]
    old_name = connection.settings_dict["NAME"]
    old_test = connection.settings_dict.get("TEST")
    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.mkdtemp(prefix="rag-eval-")
        name = str(Path(folder) / "eval.sqlite3")
    else:
        name = f"rag_eval_{os.getpid()}_{secrets.token_hex(4)}"
    connection.settings_dict["TEST"] = {**(old_test or {}), "NAME": name}
    try:
        yield connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    finally:
        if connection.settings_dict["NAME"] != old_name:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        connection.settings_dict["TEST"] = old_test
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        if had_index:
            refresh_now()


def load_corpus(directory: Path | str) -> CorpusLoad:
    """Ingest every supported file under the folder (recursively), keyed by its path in it, into the current
    database, then index it."""
    directory = Path(directory)
    if not directory.is_dir():
        raise CorpusError(f"{directory}: no such folder")
    try:
        manifest = read_manifest(directory)
    except ManifestError as error:
        raise CorpusError(str(error)) from None
    ingested: list[str] = []
    failed: list[tuple[str, str]] = []
    files = {path.relative_to(directory).as_posix(): path for path in corpus_files(directory)}
    skipped = [relative for relative in files if not is_supported(relative)]
    wanted = [relative for relative in files if is_supported(relative)]
    details_of = details_by_path(manifest, wanted)
    refused = refuse_repeated_paths([(relative, relative) for relative in wanted])  # only paths equal once normalised
    for position, relative in enumerate(wanted):
        path, details = files[relative], details_of[relative]
        if position in refused:
            failed.append((relative, refused[position].error))
            continue
        if isinstance(details, str):  # an entry that could not be read, or a bare name that names several files
            failed.append((relative, details))
            continue
        result = ingest_upload(
            file_name=path.name,
            path=relative,
            size=path.stat().st_size,
            read=path.read_bytes,
            audience=details.audience,
            title=details.title,
            document_date=details.updated_on,
        )
        if result.failed:
            failed.append((relative, result.error))
        else:
            ingested.append(relative)
    refresh_now()  # built here and now, from this database, before any question is asked
    return CorpusLoad(tuple(ingested), tuple(failed), tuple(skipped))


def corpus_files(directory: Path) -> list[Path]:
    """Every file under the folder, sorted, without hidden ones and without the top-level audiences.json."""
    return [path for path in files_under(directory) if path != directory / MANIFEST]
