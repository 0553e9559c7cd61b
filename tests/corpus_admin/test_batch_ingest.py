"""Many files at once: the outcomes of ingesting each alone, a few queries per batch, failures that stay alone."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from corpus_admin.batch_ingest import FileToIngest, ingest_files
from corpus_admin.corpus_state import corpus_stamp
from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, ingest_file
from corpus_admin.models import Chunk, Source, SourceStatus

pytestmark = pytest.mark.django_db


def files(contents: dict[str, str], **details) -> list[FileToIngest]:
    return [
        FileToIngest(file_name=path.rsplit("/", 1)[-1], path=path, size=len(text.encode()),
                     read=lambda text=text: text.encode(), **details)
        for path, text in contents.items()
    ]


TREE = {f"ref/page{n}.md": f"# Page {n}\n\nSection {n} of the manual says {n} things." for n in range(7)}


class RolledBack(Exception):
    """Raised to undo what a block stored."""


def chunks() -> list[tuple[str, str, str]]:
    return list(Chunk.objects.order_by("chunk_id").values_list("chunk_id", "text", "audience"))


@pytest.mark.parametrize("workers", [1, 2])
def test_files_ingested_together_are_stored_as_each_alone_would_be(workers):
    with pytest.raises(RolledBack), transaction.atomic():
        for path, text in TREE.items():
            ingest_file(file_name=path.rsplit("/", 1)[-1], path=path, content=text.encode(), audience="partner")
        alone = chunks()
        raise RolledBack

    results = ingest_files(files(TREE, audience="partner"), workers=workers, batch_size=3)

    assert [(r.path, r.outcome, r.version, r.chunk_count) for r in results] == [
        (path, ADDED, 1, 1) for path in TREE
    ]
    assert chunks() == alone
    assert set(Source.objects.values_list("status", "version")) == {(SourceStatus.READY, 1)}


def test_a_batch_costs_a_few_queries_however_many_files_it_holds():
    ingest_files(files({"first.md": "# First\n\nThe corpus exists."}))  # its version's row made once, here
    def queries(count: int) -> int:
        contents = {f"q{count}/{n}.md": f"# Note {n}\n\nNote {n} of {count}." for n in range(count)}
        with CaptureQueriesContext(connection) as captured:
            ingest_files(files(contents), batch_size=50)
        return len(captured)

    assert queries(20) == queries(2)


def test_a_changed_file_updates_its_source_and_an_unchanged_one_is_left():
    ingest_files(files({"a.md": "# A\n\nAlpha is first.", "b.md": "# B\n\nBravo is second."}))
    stamp = corpus_stamp()

    results = ingest_files(files({"a.md": "# A\n\nAlpha is first.", "b.md": "# B\n\nBravo is 2nd."}))

    assert [(r.path, r.outcome, r.version) for r in results] == [("a.md", UNCHANGED, 1), ("b.md", UPDATED, 2)]
    assert corpus_stamp() != stamp
    assert Chunk.objects.current().get(source__path="b.md").text == "Bravo is 2nd."
    assert Chunk.objects.past().get(source__path="b.md").text == "Bravo is second."


def test_a_rejected_file_fails_alone_naming_its_path_and_its_source_keeps_the_served_version():
    ingest_files(files({"ref/a.md": "# A\n\nAlpha is first.", "ref/b.md": "# B\n\nBravo is second."}))

    results = ingest_files(files({"ref/a.md": "", "ref/b.md": "# B\n\nBravo is 2nd.", "ref/c.md": "# C\n\nCharlie."}))

    assert [(r.path, r.outcome) for r in results] == [("ref/a.md", FAILED), ("ref/b.md", UPDATED),
                                                      ("ref/c.md", ADDED)]
    assert results[0].error == "ref/a.md: the file is empty"
    served = Source.objects.get(path="ref/a.md")
    assert (served.version, served.status, served.last_error) == (1, SourceStatus.READY, results[0].error)
    assert Chunk.objects.current().get(source=served).text == "Alpha is first."


def test_each_outcome_is_passed_on_as_it_is_known():
    seen = []

    results = ingest_files(files(TREE), batch_size=2, on_result=seen.append)

    assert sorted(seen, key=lambda r: r.path) == sorted(results, key=lambda r: r.path)
