"""A folder of documents: its files, and what its audiences.json says about them (audience, title, date)."""
import datetime as dt
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from corpus_admin.parsing import SUPPORTED
from corpus_admin.paths import BadPath, file_name_of, normal_path

MANIFEST = "audiences.json"


class ManifestError(ValueError):
    """An audiences.json that cannot be read as a whole."""


@dataclass(frozen=True)
class FileDetails:
    """What audiences.json says about one file."""

    audience: str = "public"
    title: str | None = None
    updated_on: dt.date | None = None


def files_under(directory: Path) -> list[Path]:
    """Every file under the folder (recursively), sorted, without hidden ones."""
    return [
        path
        for path in sorted(directory.rglob("*"))
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(directory).parts)
    ]


def is_supported(path: str) -> bool:
    """Whether a file's extension names a format ingestion reads."""
    return PurePosixPath(path).suffix.lower() in SUPPORTED


def skipped_summary(paths: Iterable[str]) -> str:
    """One line for the files of a folder or archive skipped for their type, by extension, most first:
    "skipped 34 files of unsupported types: .png (20), .py (3), no extension (2)"; empty when there are none."""
    counts = Counter(PurePosixPath(path).suffix.lower() or "no extension" for path in paths)
    if not counts:
        return ""
    total = sum(counts.values())
    kinds = ", ".join(f"{kind} ({n})" for kind, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    files, types = ("file", "type") if total == 1 else ("files", "types" if len(counts) > 1 else "type")
    return f"skipped {total} {files} of unsupported {types}: {kinds}"


def read_manifest(directory: Path) -> dict[str, FileDetails | str]:
    """audiences.json: file path or name -> audience, or -> {"audience", "title", "updated_on"}; a bad entry -> why."""
    path = directory / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ManifestError(f"{path}: not a readable JSON file ({error})") from None
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: must map file paths or names to audiences")
    return {name: _details(value) for name, value in data.items()}


def _details(value: object) -> FileDetails | str:
    if isinstance(value, str):
        return FileDetails(audience=value)
    if not isinstance(value, dict):
        return f"{MANIFEST}: the entry must be an audience or an object, not {value!r}"
    try:
        updated_on = dt.date.fromisoformat(value["updated_on"]) if value.get("updated_on") else None
    except (TypeError, ValueError):
        return f"{MANIFEST}: updated_on {value['updated_on']!r} is not a date (YYYY-MM-DD)"
    audience, title = value.get("audience") or "public", value.get("title") or None
    return FileDetails(audience=audience, title=title, updated_on=updated_on)


def details_by_path(manifest: Mapping[str, FileDetails | str], paths: Iterable[str]) -> dict[str, FileDetails | str]:
    """What audiences.json says about each file, by its path relative to the folder: the entry under its path, else
    the one under its bare name if no other file has that name, else the defaults; why, for a file whose bare name
    names several files (guessing could publish an internal one)."""
    paths = list(paths)
    named = named_details(manifest, paths)
    return {path: named.get(path, FileDetails()) for path in paths}


def named_details(manifest: Mapping[str, FileDetails | str], paths: Iterable[str]) -> dict[str, FileDetails | str]:
    """details_by_path for only the files audiences.json names (by path, or by a bare name that is theirs alone, or
    a bare name several files have: why that is refused)."""
    paths = list(paths)
    entries: dict[str, FileDetails | str] = {}
    for raw, details in manifest.items():
        try:
            entries[normal_path(raw)] = details
        except BadPath:
            continue  # names no file
    holders: dict[str, list[str]] = {}
    for path in paths:
        holders.setdefault(file_name_of(path), []).append(path)
    found: dict[str, FileDetails | str] = {}
    for path in paths:
        name = file_name_of(path)
        key = _normal_or_same(path)
        if key in entries:
            found[path] = entries[key]
        elif name in entries and len(holders[name]) > 1:
            files = f"{len(holders[name])} files ({', '.join(holders[name])})"
            found[path] = f"{MANIFEST} names {name!r}, which is {files}: name each by its path"
        elif name in entries:
            found[path] = entries[name]
    return found


def _normal_or_same(path: str) -> str:
    try:
        return normal_path(path)
    except BadPath:
        return path
