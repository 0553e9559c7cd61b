"""The ingest and load_demo commands: progress, summary, exit status, idempotence."""
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils.text import slugify

from corpus_admin.management.commands.load_demo import DEMO_DIR
from corpus_admin.models import Chunk, Source

pytestmark = pytest.mark.django_db


def test_ingest_command_walks_folders_and_summarises(tmp_path):
    (tmp_path / "nested").mkdir()
    (tmp_path / "a.md").write_text("# A\n\nThe free trial lasts 14 days.")
    (tmp_path / "nested" / "b.txt").write_text("Backups run every 6 hours.")
    out = io.StringIO()

    call_command("ingest", str(tmp_path), "--audience", "partner", stdout=out, stderr=io.StringIO())

    assert "2 added, 0 updated, 0 unchanged, 0 failed" in out.getvalue()
    assert set(Source.objects.values_list("audience", flat=True)) == {"partner"}


def test_ingest_command_reports_each_failure_and_exits_1(tmp_path):
    (tmp_path / "good.md").write_text("# Good\n\nInvoices are issued on the 1st.")
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "empty.txt").write_text("")
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_info:
        call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert exit_info.value.code == 1
    assert "1 added, 0 updated, 0 unchanged, 1 failed" in out.getvalue()
    assert "failed: ref/empty.txt: the file is empty" in out.getvalue()


def test_ingest_command_skips_a_folders_files_of_unsupported_types_in_one_line(tmp_path):
    (tmp_path / "ref" / "img").mkdir(parents=True)
    (tmp_path / "index.txt").write_text("Backups run every 6 hours.")
    for name in ("ref/img/a.png", "ref/img/b.png", "ref/img/c.PNG", "conf.py", "Makefile"):
        (tmp_path / name).write_bytes(b"\x89PNG not text")
    out = io.StringIO()

    call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert "1 added, 0 updated, 0 unchanged, 0 failed" in out.getvalue()
    assert "skipped 5 files of unsupported types: .png (3), .py (1), no extension (1)" in out.getvalue()
    assert list(Source.objects.values_list("path", flat=True)) == ["index.txt"]


def test_ingest_command_refuses_an_unsupported_file_named_on_its_own(tmp_path):
    (tmp_path / "logo.png").write_bytes(b"\x89PNG")
    out = io.StringIO()

    with pytest.raises(SystemExit):
        call_command("ingest", str(tmp_path / "logo.png"), stdout=out, stderr=io.StringIO())

    assert "failed: logo.png: unsupported file type '.png'" in out.getvalue()


def test_ingest_command_second_run_is_unchanged(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nThe free trial lasts 14 days.")
    call_command("ingest", str(tmp_path), stdout=io.StringIO(), stderr=io.StringIO())
    out = io.StringIO()

    call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert "0 added, 0 updated, 1 unchanged, 0 failed" in out.getvalue()


def test_load_demo_is_idempotent_and_every_chunk_page_opens(client, staff_user):
    manifest = json.loads((DEMO_DIR / "audiences.json").read_text())
    call_command("load_demo", stdout=io.StringIO())
    chunks = Chunk.objects.count()

    call_command("load_demo", stdout=io.StringIO())

    assert Source.objects.count() == len(manifest)
    assert Chunk.objects.count() == chunks
    # Flat documents: each path is its file name, and each slug the one the name gave before sources had paths.
    slugs = {name: slugify(name.rsplit(".", 1)[0]) for name in manifest}
    assert dict(Source.objects.values_list("path", "slug")) == slugs
    client.force_login(staff_user)
    for chunk_id in Chunk.objects.values_list("chunk_id", flat=True):
        assert client.get(f"/chunks/{chunk_id}/").status_code == 200, chunk_id


def test_demo_corpus_has_every_format_and_audience():
    manifest = json.loads((DEMO_DIR / "audiences.json").read_text())

    assert {name.rsplit(".", 1)[1] for name in manifest} >= {"md", "html", "pdf", "txt", "rst"}
    assert {entry["audience"] for entry in manifest.values()} == {"public", "partner", "internal"}
    assert 25 <= len(manifest) <= 35


def test_ingest_command_keys_a_folders_files_by_their_path_in_it(tmp_path):
    for folder, days in (("faq", 14), ("ref/models", 30)):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "index.txt").write_text(f"The free trial lasts {days} days.")
    out = io.StringIO()

    call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert "2 added, 0 updated, 0 unchanged, 0 failed" in out.getvalue()
    assert dict(Source.objects.values_list("path", "original_name")) == {
        "faq/index.txt": "index.txt", "ref/models/index.txt": "index.txt",
    }
    assert sorted(Chunk.objects.values_list("chunk_id", flat=True)) == ["faq-index-v1-c01", "ref-models-index-v1-c01"]


def test_ingest_command_refuses_the_same_path_twice_naming_both_and_ingests_the_first(tmp_path):
    for folder, days in (("a", 14), ("b", 30)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "faq.md").write_text(f"# FAQ\n\nThe free trial lasts {days} days.")
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_info:
        call_command("ingest", str(tmp_path / "a"), str(tmp_path / "b"), stdout=out, stderr=io.StringIO())

    assert exit_info.value.code == 1
    assert "1 added, 0 updated, 0 unchanged, 1 failed" in out.getvalue()
    refusal = f"failed: {tmp_path}/b/faq.md: same path as {tmp_path}/a/faq.md; each path may come only once"
    assert refusal in out.getvalue()
    source = Source.objects.get()
    assert source.version == 1 and "14 days" in source.chunks.get().text


def test_ingest_command_gives_files_what_the_folders_audiences_json_says(tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "plans.md").write_text("# Plans\n\nThe Team plan costs $19 per month.")
    (tmp_path / "ref" / "salaries.md").write_text("# Salaries\n\nReviews happen in March.")
    (tmp_path / "faq.md").write_text("# FAQ\n\nThe free trial lasts 14 days.")
    (tmp_path / "audiences.json").write_text(json.dumps({
        "ref/salaries.md": "internal",
        "plans.md": {"audience": "partner", "title": "Partner plans", "updated_on": "2025-03-01"},
    }))
    out = io.StringIO()

    call_command("ingest", str(tmp_path), "--audience", "public", stdout=out, stderr=io.StringIO())

    assert "3 added, 0 updated, 0 unchanged, 0 failed" in out.getvalue()
    assert "skipped" not in out.getvalue()  # audiences.json is read, not ingested or counted as skipped
    assert set(Source.objects.values_list("path", "audience", "title")) == {
        ("ref/salaries.md", "internal", "Salaries"),
        ("ref/plans.md", "partner", "Partner plans"),
        ("faq.md", "public", "FAQ"),
    }
    assert str(Source.objects.get(path="ref/plans.md").updated_on) == "2025-03-01"


def test_ingest_command_refuses_a_file_its_audiences_json_names_ambiguously(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "index.md").write_text(f"# {folder}\n\nThe free trial lasts 14 days.")
    (tmp_path / "audiences.json").write_text(json.dumps({"index.md": "internal"}))
    out = io.StringIO()

    with pytest.raises(SystemExit):
        call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert "0 added, 0 updated, 0 unchanged, 2 failed" in out.getvalue()
    assert "failed: a/index.md: audiences.json names 'index.md', which is 2 files (a/index.md, b/index.md)" in (
        out.getvalue()
    )
    assert not Source.objects.exists()


def test_a_file_named_on_its_own_is_keyed_by_its_path_under_root(tmp_path):
    (tmp_path / "ref" / "models").mkdir(parents=True)
    (tmp_path / "ref" / "models" / "fields.txt").write_text("A field's default is used when no value is given.")
    (tmp_path / "audiences.json").write_text(json.dumps({"ref/models/fields.txt": "partner"}))

    call_command("ingest", str(tmp_path / "ref" / "models" / "fields.txt"), "--root", str(tmp_path),
                 stdout=io.StringIO(), stderr=io.StringIO())
    call_command("ingest", str(tmp_path / "ref" / "models" / "fields.txt"), stdout=io.StringIO(), stderr=io.StringIO())

    assert dict(Source.objects.values_list("path", "audience")) == {
        "ref/models/fields.txt": "partner", "fields.txt": "public",
    }


def test_a_file_outside_root_is_refused_by_name(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "notes.txt").write_text("Backups run every 6 hours.")

    with pytest.raises(CommandError, match="notes.txt: not under --root"):
        call_command("ingest", str(tmp_path / "notes.txt"), "--root", str(tmp_path / "docs"),
                     stdout=io.StringIO(), stderr=io.StringIO())
