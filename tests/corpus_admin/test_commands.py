"""The ingest and load_demo commands: progress, summary, exit status, idempotence."""
import io
import json

import pytest
from django.core.management import call_command
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
