"""A folder of documents: its files, and what its audiences.json says about them (audience, title, date)."""
import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

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


def read_manifest(directory: Path) -> dict[str, FileDetails | str]:
    """audiences.json: file name -> audience, or -> {"audience", "title", "updated_on"}; a bad entry -> why."""
    path = directory / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ManifestError(f"{path}: not a readable JSON file ({error})") from None
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: must map file names to audiences")
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
