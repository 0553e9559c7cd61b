"""The real corpora the golden sets under golden/ ask about: public manuals from Debian packages, fetched with the
package manager (`apt-get download`, unpacked with `dpkg-deb -x`; never installed, never fetched from the web).

`python -m answers.evaluation.corpora NAME... [--root var/corpora]` leaves each corpus's documents in
ROOT/NAME/docs (the folder `evaluate --corpus` reads; a golden case names a source by its path in it) and does
nothing for a corpus already there. The package is unpacked into ROOT/NAME/package and only the files the corpus
selects are copied, so a large manual can be cut to the chapters the questions come from plus distractors.
"""
import argparse
import fnmatch
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_ROOT = Path("var/corpora")
DONE = ".fetched"  # written last: a folder without it is an interrupted fetch, done again


@dataclass(frozen=True)
class RealCorpus:
    """A manual in a Debian package: its folder in the package, and the files of it that the corpus keeps."""

    name: str
    package: str
    folder: str  # inside the unpacked package
    include: tuple[str, ...]  # fnmatch patterns on the path relative to `folder`; `*` stays within one folder
    golden: str  # the golden file under answers/evaluation/golden/

    def selects(self, relative: str) -> bool:
        """Whether the file at this path (relative to the manual's folder) belongs to the corpus."""
        parts = relative.split("/")
        return any(
            len(parts) == len(pattern_parts) and all(map(fnmatch.fnmatchcase, parts, pattern_parts))
            for pattern_parts in (pattern.split("/") for pattern in self.include)
        )


CORPORA: dict[str, RealCorpus] = {
    corpus.name: corpus
    for corpus in (
        # The library reference (317 pages); the tutorial, howtos, language reference and C API are left out.
        RealCorpus(
            name="python",
            package="python3.11-doc",
            folder="usr/share/doc/python3.11/html",
            include=("library/*.html",),
            golden="python.jsonl",
        ),
        # The whole PostgreSQL 15 manual (1,169 pages).
        RealCorpus(
            name="postgresql",
            package="postgresql-doc-15",
            folder="usr/share/doc/postgresql-doc-15/html",
            include=("*.html",),
            golden="postgresql.jsonl",
        ),
        # The Debian Administrator's Handbook (the edition for Debian 11, as bookworm packages it), English, every page.
        RealCorpus(
            name="debian-handbook",
            package="debian-handbook",
            folder="usr/share/doc/debian-handbook/html/en-US",
            include=("*.html",),
            golden="debian-handbook.jsonl",
        ),
    )
}

Runner = Callable[[Sequence[str], Path], None]


def run_command(command: Sequence[str], cwd: Path) -> None:
    """Run one command in a folder; a failure raises CalledProcessError with its output shown."""
    subprocess.run(list(command), cwd=cwd, check=True)


def fetch_corpus(corpus: RealCorpus, *, root: Path = DEFAULT_ROOT, run: Runner = run_command) -> Path:
    """The corpus's docs folder under root, fetched and cut now if it is not there yet."""
    home = root / corpus.name
    docs = home / "docs"
    if (home / DONE).exists():
        return docs
    shutil.rmtree(home, ignore_errors=True)
    package = home / "package"
    package.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="rag-corpus-") as download:
        download_package(corpus.package, Path(download), run=run)
        debs = sorted(Path(download).glob(f"{corpus.package}_*.deb"))
        if not debs:
            raise FileNotFoundError(f"apt-get download {corpus.package} left no .deb (run apt-get update once?)")
        run(["dpkg-deb", "-x", str(debs[-1].resolve()), str(package.resolve())], Path(download))
    copied = copy_selected(corpus, source=package / corpus.folder, target=docs)
    if not copied:
        raise FileNotFoundError(f"{corpus.package}: no file of {corpus.folder} matches the corpus's patterns")
    (home / DONE).write_text(f"{corpus.package}: {copied} files\n", encoding="utf-8")
    return docs


def download_package(package: str, folder: Path, *, run: Runner = run_command) -> None:
    """apt-get download the package into the folder; when apt knows no such package yet (a machine whose package
    lists were never fetched), apt-get update once and try again."""
    try:
        run(["apt-get", "download", package], folder)
    except subprocess.CalledProcessError:
        run(["apt-get", "update", "-qq"], folder)
        run(["apt-get", "download", package], folder)


def copy_selected(corpus: RealCorpus, *, source: Path, target: Path) -> int:
    """Copy the files under source that the corpus selects into target, keeping their paths; how many."""
    copied = 0
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source).as_posix()
        if path.is_file() and corpus.selects(relative):
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            copied += 1
    return copied


def main(argv: Sequence[str] | None = None) -> int:
    """Fetch the named corpora (all of them by default) and print each docs folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help=f"corpora to fetch: {', '.join(CORPORA)} (default: all)"
    )
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    options = parser.parse_args(argv)
    unknown = [name for name in options.names if name not in CORPORA]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; known: {', '.join(CORPORA)}")
    for name in options.names or CORPORA:
        print(fetch_corpus(CORPORA[name], root=options.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
