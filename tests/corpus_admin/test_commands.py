"""The ingest and load_demo commands: progress, summary, exit status, idempotence."""
import io
import json

import pytest
from django.core.management import call_command

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
    (tmp_path / "bad.docx").write_bytes(b"PK\x03\x04")
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_info:
        call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert exit_info.value.code == 1
    assert "1 added, 0 updated, 0 unchanged, 1 failed" in out.getvalue()
    assert "failed: bad.docx: not a Word document (.docx) (the content is not a zip archive)" in out.getvalue()


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
    client.force_login(staff_user)
    for chunk_id in Chunk.objects.values_list("chunk_id", flat=True):
        assert client.get(f"/chunks/{chunk_id}/").status_code == 200, chunk_id


def test_demo_corpus_has_every_format_and_audience():
    manifest = json.loads((DEMO_DIR / "audiences.json").read_text())

    assert {name.rsplit(".", 1)[1] for name in manifest} >= {"md", "html", "pdf", "txt", "rst"}
    assert {entry["audience"] for entry in manifest.values()} == {"public", "partner", "internal"}
    assert 25 <= len(manifest) <= 35


def test_ingest_command_refuses_a_second_file_with_the_same_name_and_ingests_the_first(tmp_path):
    for folder, days in (("a", 14), ("b", 30)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "faq.md").write_text(f"# FAQ\n\nThe free trial lasts {days} days.")
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_info:
        call_command("ingest", str(tmp_path), stdout=out, stderr=io.StringIO())

    assert exit_info.value.code == 1
    assert "1 added, 0 updated, 0 unchanged, 1 failed" in out.getvalue()
    refusal = f"failed: {tmp_path}/b/faq.md: same file name as {tmp_path}/a/faq.md; file names must be unique"
    assert refusal in out.getvalue()
    source = Source.objects.get()
    assert source.version == 1 and "14 days" in source.chunks.get().text
