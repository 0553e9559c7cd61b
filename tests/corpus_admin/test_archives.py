"""A .zip archive's files, or why it is refused whole: escapes, links, bombs, too many files, not a zip."""
import io
import stat
import zipfile

import pytest

from corpus_admin.archives import ArchiveError, ArchiveMember, expand_zip, other_archive_kind

LIMITS = {"max_files": 100, "max_bytes": 1024 * 1024}


def zipped(members: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for path, content in members.items():
            archive.writestr(path, content)
    return buffer.getvalue()


def test_files_come_out_under_their_paths_sorted_without_folders_hidden_files_or_macos_extras():
    data = zipped({
        "docs/ref/b.txt": b"Bravo.", "docs/a.md": b"# Alpha", "docs/ref/": b"", "docs/.git/config.txt": b"x",
        "__MACOSX/docs/._a.md": b"\x00", "docs\\win\\c.txt": b"Charlie.", "docs/img/logo.png": b"\x89PNG",
        "docs/Makefile": b"all:",
    })

    expanded = expand_zip(name="docs.zip", data=data, **LIMITS)

    assert expanded.members == (
        ArchiveMember("a.md", b"# Alpha"), ArchiveMember("ref/b.txt", b"Bravo."),
        ArchiveMember("win/c.txt", b"Charlie."),
    )
    assert expanded.skipped == ("Makefile", "img/logo.png")


def test_a_folder_zipped_from_outside_is_keyed_by_the_paths_inside_it():
    data = zipped({"html/index.html": b"<p>Index</p>", "html/ref/sql.html": b"<p>SQL</p>", "html/style.css": b"p{}"})

    expanded = expand_zip(name="html.zip", data=data, **LIMITS)

    assert [member.path for member in expanded.members] == ["index.html", "ref/sql.html"]
    assert expanded.skipped == ("style.css",)


@pytest.mark.parametrize(
    ("members", "paths"),
    [
        ({"html/index.html": b"<p>Index</p>", "README.md": b"# Read me"}, ["README.md", "html/index.html"]),
        ({"html/index.html": b"<p>Index</p>", "ref/sql.html": b"<p>SQL</p>"}, ["html/index.html", "ref/sql.html"]),
    ],
    ids=["a file beside the folder", "two folders"],
)
def test_an_archive_whose_files_lie_in_several_places_keeps_their_paths(members, paths):
    expanded = expand_zip(name="docs.zip", data=zipped(members), **LIMITS)

    assert [member.path for member in expanded.members] == paths


def test_a_bomb_is_refused_from_its_declared_sizes_naming_its_largest_file():
    data = zipped({"a.txt": b"small", "deep/bomb.txt": b"\x00" * (5 * 1024 * 1024)})
    assert len(data) < 10_000

    with pytest.raises(ArchiveError) as error:
        expand_zip(name="bomb.zip", data=data, **LIMITS)

    assert str(error.value) == (
        "bomb.zip: its files come to 5.0 MB uncompressed, over the 1 MB limit (the largest, deep/bomb.txt, is 5.0 MB)"
    )


def test_a_member_lying_about_its_size_is_never_decompressed_past_it():
    # The central directory says 5 bytes; the data holds a megabyte. zipfile stops at the declared size and the
    # CRC no longer matches, so the member is refused rather than read whole.
    data = bytearray(zipped({"liar.txt": b"y" * (1024 * 1024)}))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24 : central + 28] = (5).to_bytes(4, "little")

    with pytest.raises(ArchiveError, match="liar.txt cannot be read"):
        expand_zip(name="liar.zip", data=bytes(data), **LIMITS)


def test_every_member_that_escapes_or_links_is_named_in_one_refusal():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("ok.txt", b"fine")
        archive.writestr("../up.txt", b"x")
        archive.writestr("/abs.txt", b"x")
        link = zipfile.ZipInfo("ref/link.txt")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")

    with pytest.raises(ArchiveError) as error:
        expand_zip(name="bad.zip", data=buffer.getvalue(), **LIMITS)

    message = str(error.value)
    assert message.startswith("bad.zip: refused, nothing ingested: ")
    assert "../up.txt: a path may not contain '..'" in message
    assert "/abs.txt: an absolute path" in message
    assert "ref/link.txt: a symbolic link" in message


def test_an_encrypted_member_is_refused():
    data = bytearray(zipped({"secret.txt": b"hidden"}, method=zipfile.ZIP_STORED))
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # set the "encrypted" flag in both headers
        at = data.index(signature) + offset
        data[at] |= 0x1

    with pytest.raises(ArchiveError, match="secret.txt: encrypted"):
        expand_zip(name="locked.zip", data=bytes(data), **LIMITS)


def test_more_files_than_the_limit_is_refused_before_any_is_read():
    data = zipped({f"{n}.txt": b"text" for n in range(4)})

    with pytest.raises(ArchiveError, match="4 files, over the limit of 3 files"):
        expand_zip(name="many.zip", data=data, max_files=3, max_bytes=1024)


def test_content_that_is_not_a_zip_is_refused():
    with pytest.raises(ArchiveError, match=r"^docs.zip: not a zip archive"):
        expand_zip(name="docs.zip", data=b"just text", **LIMITS)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("docs.tar.gz", ".tar.gz"), ("DOCS.TGZ", ".tgz"), ("docs.7z", ".7z"), ("docs.zip", None), ("notes.txt", None)],
)
def test_other_archive_formats_are_named(name, kind):
    assert other_archive_kind(name) == kind
