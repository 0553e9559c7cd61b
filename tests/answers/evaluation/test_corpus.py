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

    assert load.ingested == ("good.md", "sub/good.md")
    assert load.skipped == ("table.ods",)
    failed = dict(load.failed)
    assert set(failed) == {"dated.md", "empty.txt"}
    assert "'last week' is not a date" in failed["dated.md"]
    assert "empty" in failed["empty.txt"]


def test_files_are_keyed_by_their_path_in_the_folder_and_a_bare_name_in_audiences_json_must_name_one(tmp_path):
    for folder in ("faq", "ref"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.txt").write_text(f"The {folder} pages start here.\n")
    (tmp_path / "ref" / "fields.txt").write_text("A field has a default.\n")
    (tmp_path / "audiences.json").write_text(json.dumps({"index.txt": "internal", "fields.txt": "partner"}))

    load = load_corpus(tmp_path)

    assert load.ingested == ("ref/fields.txt",)
    assert dict(load.failed) == dict.fromkeys(
        ("faq/index.txt", "ref/index.txt"),
        "audiences.json names 'index.txt', which is 2 files (faq/index.txt, ref/index.txt): name each by its path",
    )
    assert dict(Source.objects.values_list("path", "audience")) == {"ref/fields.txt": "partner"}


@pytest.mark.parametrize("manifest", ["{broken", "[1, 2]"])
def test_unreadable_audiences_json_stops_the_run(tmp_path, manifest):
    (tmp_path / "audiences.json").write_text(manifest)

    with pytest.raises(CorpusError, match="audiences.json"):
        load_corpus(tmp_path)
