"""A source's key: its path relative to the folder or archive it came from, in one normal form, and the readable slug
a new source's chunk ids start with."""
import re
import unicodedata
from pathlib import PurePosixPath

from django.utils.text import slugify

MAX_PATH = 500  # Source.path
MAX_NAME = 255  # Source.original_name
SLUG_BASE = 50  # of Source.slug's 60: room for a collision suffix ("-2" .. "-999")

_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class BadPath(ValueError):
    """A path that cannot be a source's key; the message names the path and the reason."""


def normal_path(raw: str) -> str:
    """The key of a relative path: '/' between parts, Unicode NFC, no empty or '.' parts.

    NFC because macOS writes names decomposed: the same file zipped there and on Linux must be one key. An absolute
    path, a '..' part, a control character, or a path or name over the stored lengths raises BadPath.
    """
    text = unicodedata.normalize("NFC", raw.replace("\\", "/")).strip()
    if text.startswith("/") or _DRIVE.match(text):
        raise BadPath(f"{raw}: an absolute path; paths must be relative to their folder or archive")
    parts = [part for part in text.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise BadPath(f"{raw}: a path may not contain '..' (it would leave its folder or archive)")
    if not parts:
        raise BadPath(f"{raw!r}: not a file path")
    path = "/".join(parts)
    if _CONTROL.search(path):
        raise BadPath(f"{path!r}: a path may not contain control characters")
    if len(path) > MAX_PATH:
        raise BadPath(f"{path[:80]}…: the path is {len(path)} characters long, over the {MAX_PATH} limit")
    name = parts[-1]
    if len(name) > MAX_NAME:
        raise BadPath(f"{name[:80]}…: the file name is {len(name)} characters long, over the {MAX_NAME} limit")
    return path


def file_name_of(path: str) -> str:
    """A normal path's last part: the file's own name."""
    return path.rsplit("/", 1)[-1]


def slug_base(path: str) -> str:
    """The readable start of a new source's slug: its folders and file stem, `ref/models/fields.txt` ->
    `ref-models-fields`; leading folders are dropped, whole, until it fits in SLUG_BASE characters."""
    pure = PurePosixPath(path)
    parts = [part for part in (slugify(p) for p in (*pure.parent.parts, pure.stem)) if part]
    while len(parts) > 1 and len("-".join(parts)) > SLUG_BASE:
        parts.pop(0)
    return "-".join(parts)[:SLUG_BASE].strip("-") or "document"
