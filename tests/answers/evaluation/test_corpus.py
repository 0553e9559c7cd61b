"""Ingesting an evaluation corpus folder: recursive, every supported format, audiences.json, failures reported."""
import datetime as dt
import json

import pytest

from answers.evaluation.corpus import CorpusError, load_corpus
from corpus_admin.models import Source

pytestmark = pytest.mark.django_db


def test_folder_is_ingested_recursively_with_audiences_titles_and_dates(tmp_path):
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "a.md").write_text("# A\n\nAlpha text about apples.\n")
    (tmp_path / "deep" / "b.txt").write_text("Bravo text about bananas.\n")
    (tmp_path / "deep" / "er" / "c.rst").write_text("C\n=\n\nCharlie text about cherries.\n")
    (tmp_path / "d.md").write_text("# D\n\nDelta text about dates.\n")
    (tmp_path / ".hidden.md").write_text("# Hidden\n\nNever ingested.\n")
    (tmp_path / "audiences.json").write_text(json.dumps({
        "a.md": "partner",
        "b.txt": {"title": "Bravo guide", "audience": "internal", "updated_on": "2024-01-02"},
        "deep/er/c.rst": {"title": "Charlie"},
    }))

    load = load_corpus(tmp_path)

    assert load.ingested == ("a.md", "d.md", "deep/b.txt", "deep/er/c.rst") and load.failed == ()
    sources = {s.original_name: s for s in Source.objects.all()}
    assert sources["a.md"].audience == "partner"
    assert (sources["b.txt"].title, sources["b.txt"].audience) == ("Bravo guide", "internal")
    assert sources["b.txt"].updated_on == dt.date(2024, 1, 2)
    assert (sources["c.rst"].title, sources["c.rst"].audience) == ("Charlie", "public")
    assert sources["d.md"].audience == "public"


def test_files_that_fail_are_reported_and_the_rest_ingested(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "good.md").write_text("# Good\n\nA good document.\n")
    (tmp_path / "sub" / "good.md").write_text("# Twin\n\nSame file name, other folder.\n")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "dated.md").write_text("# Dated\n\nA dated document.\n")
    (tmp_path / "table.ods").write_text("a,b\n")
    (tmp_path / "audiences.json").write_text(json.dumps({"dated.md": {"updated_on": "last week"}}))

    load = load_corpus(tmp_path)

    assert load.ingested == ("good.md",)
    assert load.skipped == ("table.ods",)
    failed = dict(load.failed)
    assert set(failed) == {"dated.md", "empty.txt", "sub/good.md"}
    assert "'last week' is not a date" in failed["dated.md"]
    assert "empty" in failed["empty.txt"] and "same file name as good.md" in failed["sub/good.md"]


@pytest.mark.parametrize("manifest", ["{broken", "[1, 2]"])
def test_unreadable_audiences_json_stops_the_run(tmp_path, manifest):
    (tmp_path / "audiences.json").write_text(manifest)

    with pytest.raises(CorpusError, match="audiences.json"):
        load_corpus(tmp_path)
