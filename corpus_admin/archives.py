"""A folder uploaded as a .zip archive: its files as (path, bytes), or why the archive is refused as a whole.

Nothing here touches the database or the disk: the members are read into memory, within limits checked before
anything is decompressed (zipfile never yields more than a member's declared size, so the declared sizes bound the
work), and each is then ingested like any other file.
"""
import io
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath

from corpus_admin.folders import is_supported
from corpus_admin.paths import BadPath, normal_path

_MB = 1024 * 1024
# Archive formats people zip folders with that are not zip: named in the refusal rather than called "unsupported".
OTHER_ARCHIVES = (".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tbz2", ".txz", ".tar", ".gz", ".bz2", ".xz", ".zst",
                  ".7z", ".rar")
_SHOWN_PROBLEMS = 5


class ArchiveError(ValueError):
    """An archive refused as a whole; the message names the archive, the reason and the members at fault."""


@dataclass(frozen=True)
class ArchiveMember:
    """One file of an archive: its path inside it (the source's key) and its content."""

    path: str
    content: bytes


@dataclass(frozen=True)
class ExpandedArchive:
    """An archive's files of supported types, sorted by path, and the paths of those skipped for their type."""

    members: tuple[ArchiveMember, ...]
    skipped: tuple[str, ...]


def is_zip_name(name: str) -> bool:
    """Whether an uploaded file's name says it is a zip archive."""
    return name.lower().endswith(".zip")


def other_archive_kind(name: str) -> str | None:
    """The extension of an archive format other than zip (`.tar.gz`), or None."""
    lower = name.lower()
    return next((suffix for suffix in OTHER_ARCHIVES if lower.endswith(suffix)), None)


def expand_zip(*, name: str, data: bytes, max_files: int, max_bytes: int) -> ExpandedArchive:
    """The files of a zip archive, without directories, hidden files and macOS's `__MACOSX` folder; when they all lie
    in one folder (the archive was made from outside it), keyed by their paths inside that folder.

    Raises ArchiveError, naming the archive and the members at fault, for: content that is not a zip archive, more
    than `max_files` files, a member with an absolute path or a '..' part, a symbolic link, an encrypted member,
    supported files whose declared sizes add up to more than `max_bytes`, or a member that cannot be decompressed.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as error:
        raise ArchiveError(f"{name}: not a zip archive ({error})") from None
    with archive:
        files = [info for info in archive.infolist() if not info.is_dir()]
        if len(files) > max_files:
            raise ArchiveError(f"{name}: {len(files):,} files, over the limit of {max_files:,} files in one archive")
        wanted, skipped = _sort_members(name, files)
        _check_total(name, wanted, max_bytes)
        members = tuple(ArchiveMember(path, _read(name, archive, info)) for path, info in wanted)
    top = _common_top([member.path for member in members] + skipped)
    if top:  # a folder zipped from outside (`zip -r html.zip html`): its files are keyed as if zipped from inside
        members = tuple(ArchiveMember(member.path[len(top):], member.content) for member in members)
        skipped = [path[len(top):] for path in skipped]
    return ExpandedArchive(members=members, skipped=tuple(skipped))


def _common_top(paths: list[str]) -> str:
    """The one folder every path lies in ('html/'), or '' when they do not all share one (or lie at the top)."""
    tops = {path.split("/", 1)[0] + "/" if "/" in path else "" for path in paths}
    return tops.pop() if len(tops) == 1 else ""


def _sort_members(name: str, files: list[zipfile.ZipInfo]) -> tuple[list[tuple[str, zipfile.ZipInfo]], list[str]]:
    """The members to read (by path), the paths skipped for their type; ArchiveError for members that must not be."""
    problems: list[str] = []
    wanted: list[tuple[str, zipfile.ZipInfo]] = []
    skipped: list[str] = []
    for info in files:
        try:
            path = normal_path(info.filename)
        except BadPath as error:
            problems.append(str(error))
            continue
        if any(part.startswith(".") or part == "__MACOSX" for part in PurePosixPath(path).parts):
            continue
        if stat.S_ISLNK(info.external_attr >> 16):
            problems.append(f"{path}: a symbolic link; archives may hold only plain files")
        elif info.flag_bits & 0x1:
            problems.append(f"{path}: encrypted; upload the archive without a password")
        elif is_supported(path):
            wanted.append((path, info))
        else:
            skipped.append(path)
    if problems:
        more = f"; and {len(problems) - _SHOWN_PROBLEMS} more" if len(problems) > _SHOWN_PROBLEMS else ""
        raise ArchiveError(f"{name}: refused, nothing ingested: {'; '.join(problems[:_SHOWN_PROBLEMS])}{more}")
    return sorted(wanted, key=lambda item: item[0]), sorted(skipped)


def _check_total(name: str, wanted: list[tuple[str, zipfile.ZipInfo]], max_bytes: int) -> None:
    """Refuse an archive whose files would decompress to more than the limit (a zip bomb), naming the largest."""
    total = sum(info.file_size for _, info in wanted)
    if total > max_bytes:
        path, largest = max(wanted, key=lambda item: item[1].file_size)
        raise ArchiveError(
            f"{name}: its files come to {total / _MB:,.1f} MB uncompressed, over the {max_bytes / _MB:,.0f} MB limit "
            f"(the largest, {path}, is {largest.file_size / _MB:,.1f} MB)"
        )


def _read(name: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, zlib.error, EOFError, OSError) as error:
        raise ArchiveError(f"{name}: {normal_path(info.filename)} cannot be read ({error})") from None
