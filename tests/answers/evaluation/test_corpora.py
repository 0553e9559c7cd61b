"""Fetching a real corpus: apt-get download and dpkg-deb -x (faked here), then only the selected files kept."""
import subprocess
from pathlib import Path

import pytest

from answers.evaluation.corpora import CORPORA, RealCorpus, fetch_corpus

MANUAL = RealCorpus(name="manual", package="manual-doc", folder="usr/share/doc/manual/html",
                    include=("library/*.html", "index.html"), golden="manual.jsonl")
PACKAGE_FILES = ("library/os.html", "library/json.html", "library/os.txt", "tutorial/intro.html", "index.html",
                 "library/sub/deep.html")


class FakeApt:
    """Plays apt-get download (a .deb in the folder) and dpkg-deb -x (the package's files in the target)."""

    def __init__(self, *, deb: bool = True, lists: bool = True):
        self.deb, self.lists = deb, lists
        self.commands: list[list[str]] = []

    def __call__(self, command, cwd: Path) -> None:
        self.commands.append(list(command))
        if command[:2] == ["apt-get", "update"]:
            self.lists = True
        if command[:2] == ["apt-get", "download"] and not self.lists:
            raise subprocess.CalledProcessError(100, command)
        if command[:2] == ["apt-get", "download"] and self.deb:
            (cwd / f"{command[2]}_1.0-1_all.deb").write_bytes(b"!<arch>")
        elif command[:2] == ["dpkg-deb", "-x"]:
            for relative in PACKAGE_FILES:
                path = Path(command[3]) / MANUAL.folder / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(f"<p>{relative}</p>")


def test_only_the_selected_files_are_kept_under_their_paths(tmp_path):
    apt = FakeApt()
    docs = fetch_corpus(MANUAL, root=tmp_path, run=apt)

    assert docs == tmp_path / "manual" / "docs"
    kept = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file())
    assert kept == ["index.html", "library/json.html", "library/os.html"]
    assert [c[:2] for c in apt.commands] == [["apt-get", "download"], ["dpkg-deb", "-x"]]
    assert apt.commands[0][2] == "manual-doc"


def test_a_fetched_corpus_is_not_fetched_again_but_an_interrupted_one_is(tmp_path):
    fetch_corpus(MANUAL, root=tmp_path, run=FakeApt())
    again = FakeApt()
    fetch_corpus(MANUAL, root=tmp_path, run=again)
    assert again.commands == []

    (tmp_path / "manual" / ".fetched").unlink()
    (tmp_path / "manual" / "docs" / "stale.html").write_text("old")
    redo = FakeApt()
    docs = fetch_corpus(MANUAL, root=tmp_path, run=redo)
    assert len(redo.commands) == 2 and not (docs / "stale.html").exists()


def test_apt_lists_are_updated_once_when_the_package_is_unknown(tmp_path):
    apt = FakeApt(lists=False)
    fetch_corpus(MANUAL, root=tmp_path, run=apt)

    assert [c[:2] for c in apt.commands] == [
        ["apt-get", "download"], ["apt-get", "update"], ["apt-get", "download"], ["dpkg-deb", "-x"]
    ]


def test_no_deb_downloaded_is_an_error_naming_the_package(tmp_path):
    with pytest.raises(FileNotFoundError, match="apt-get download manual-doc left no .deb"):
        fetch_corpus(MANUAL, root=tmp_path, run=FakeApt(deb=False))
    assert not (tmp_path / "manual" / ".fetched").exists()


def test_patterns_that_select_nothing_are_an_error(tmp_path):
    empty = RealCorpus(name="none", package="manual-doc", folder=MANUAL.folder, include=("*.pdf",), golden="x")

    with pytest.raises(FileNotFoundError, match="no file of usr/share/doc/manual/html matches"):
        fetch_corpus(empty, root=tmp_path, run=FakeApt())


@pytest.mark.parametrize(
    ("name", "path", "selected"),
    [
        ("python", "library/functions.html", True),
        ("python", "tutorial/index.html", False),
        ("postgresql", "runtime-config-resource.html", True),
        ("debian-handbook", "sect.apt-get.html", True),
        ("debian-handbook", "images/apt.png", False),
    ],
)
def test_the_real_corpora_select_their_manual_pages(name, path, selected):
    assert CORPORA[name].selects(path) is selected
