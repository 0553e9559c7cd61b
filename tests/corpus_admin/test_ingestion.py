"""Ingestion: versions, atomic switching, no-ops, and failures that leave the served version alone."""
import datetime as dt

import pytest
from django.db import transaction

from corpus_admin.corpus_state import corpus_stamp
from corpus_admin.ingestion import ADDED, FAILED, UNCHANGED, UPDATED, ingest_file, ingest_upload, withdraw_source
from corpus_admin.models import Chunk, Source, SourceStatus

REFUNDS_V1 = "# Billing\n\n## Refunds\n\nRefunds are processed within 5-7 business days.\n"
REFUNDS_V2 = "# Billing\n\n## Refunds\n\nRefunds are processed within 3 business days.\n"

pytestmark = pytest.mark.django_db


def test_new_file_becomes_source_version_one_with_chunks(ingest):
    result = ingest("refunds.md", REFUNDS_V1, date=dt.date(2025, 1, 2))

    source = Source.objects.get(original_name="refunds.md")
    assert (result.outcome, result.version) == (ADDED, 1)
    assert (source.version, source.status, source.updated_on) == (1, SourceStatus.READY, dt.date(2025, 1, 2))
    assert source.title == "Billing"
    chunk = source.chunks.get()
    assert chunk.chunk_id == "refunds-v1-c01"
    assert chunk.heading_path == ["Billing", "Refunds"]
    assert (chunk.line_start, chunk.line_end) == (5, 5)
    assert "5-7 business days" in chunk.text


def test_same_content_again_is_a_no_op(ingest):
    ingest("refunds.md", REFUNDS_V1)
    stamp_before = corpus_stamp()

    result = ingest_file(file_name="refunds.md", content=REFUNDS_V1.encode())

    assert result.outcome == UNCHANGED
    assert Chunk.objects.count() == 1
    assert corpus_stamp() == stamp_before


def test_reingest_makes_version_two_and_keeps_version_one_rows(ingest):
    ingest("refunds.md", REFUNDS_V1)
    old = Chunk.objects.get()
    old_text = old.text

    result = ingest("refunds.md", REFUNDS_V2)

    assert (result.outcome, result.version) == (UPDATED, 2)
    old.refresh_from_db()
    assert old.text == old_text and old.superseded_at is not None
    current = Chunk.objects.current().get()
    assert current.chunk_id == "refunds-v2-c01" and "3 business days" in current.text


def test_path_in_uploaded_name_is_ignored(ingest):
    ingest("../../etc/passwd/notes.txt", "Backups run every 6 hours.")

    assert Source.objects.get().original_name == "notes.txt"


@pytest.mark.parametrize(
    ("file_name", "content", "reason"),
    [
        ("slides.key", b"hello", "unsupported file type"),
        ("slides.pptx", b"hello", "not a PowerPoint presentation (.pptx)"),
        ("empty.md", b"", "empty"),
        ("blank.txt", b"   \n\n  ", "empty"),
        ("binary.txt", b"text\x00\x01\x02 with nul", "binary"),
        ("program.pdf", b"\x7fELF\x02\x01\x01" + b"\x00" * 64, "not a PDF"),
    ],
)
def test_bad_input_is_rejected_with_file_and_reason_and_stores_nothing(file_name, content, reason):
    result = ingest_file(file_name=file_name, content=content)

    assert result.outcome == FAILED
    assert result.error.startswith(f"{file_name}:") and reason in result.error
    assert not Source.objects.exists() and not Chunk.objects.exists()


def test_oversized_upload_is_refused_before_it_is_read(settings):
    settings.RAG_MAX_UPLOAD_MB = 1

    def read() -> bytes:
        raise AssertionError("an oversized file must not be read")

    result = ingest_upload(file_name="huge.txt", size=3 * 1_048_576, read=read)

    assert result.outcome == FAILED and "3.0 MB, over the 1 MB limit" in result.error
    assert not Source.objects.exists()


def test_bad_new_version_records_reason_and_keeps_old_version_served(ingest):
    ingest("refunds.md", REFUNDS_V1)

    result = ingest_file(file_name="refunds.md", content=b"\x00\x01binary")

    source = Source.objects.get()
    assert result.outcome == FAILED
    assert source.version == 1 and "binary" in source.last_error
    assert Chunk.objects.current().get().chunk_id == "refunds-v1-c01"


def test_failure_part_way_through_the_switch_leaves_version_one_served(ingest, monkeypatch):
    ingest("refunds.md", REFUNDS_V1)
    stamp_before = corpus_stamp()

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Chunk.objects, "bulk_create", explode)
    result = ingest_file(file_name="refunds.md", content=REFUNDS_V2.encode())

    source = Source.objects.get()
    assert result.outcome == FAILED and "disk full" in source.last_error
    assert source.version == 1 and source.sha256
    assert [c.chunk_id for c in Chunk.objects.current()] == ["refunds-v1-c01"]
    assert corpus_stamp() == stamp_before


def test_chunk_rows_cannot_be_edited():
    result = ingest_file(file_name="a.txt", content=b"Invoices are issued on the 1st of each month.")
    chunk = Chunk.objects.get(source_id=result.source_id)
    chunk.text = "rewritten"

    with pytest.raises(ValueError, match="immutable"), transaction.atomic():
        chunk.save()


def test_withdrawal_marks_chunks_and_changes_corpus_version(ingest):
    ingest("refunds.md", REFUNDS_V1)
    before = corpus_stamp()[0]

    withdraw_source(Source.objects.get())

    assert Source.objects.get().status == SourceStatus.WITHDRAWN
    assert not Chunk.objects.current().exists()
    assert Chunk.objects.filter(withdrawn_at__isnull=False).count() == 1
    assert corpus_stamp()[0] == before + 1


def test_each_served_change_moves_the_corpus_version(ingest):
    start = corpus_stamp()[0]
    ingest("refunds.md", REFUNDS_V1)
    ingest("refunds.md", REFUNDS_V2)

    assert corpus_stamp()[0] == start + 2


def test_uploading_the_served_content_again_clears_an_earlier_failure(ingest):
    ingest("refunds.md", REFUNDS_V1)
    ingest_file(file_name="refunds.md", content=b"\x00\x01binary")

    result = ingest_file(file_name="refunds.md", content=REFUNDS_V1.encode())

    assert result.outcome == UNCHANGED and Source.objects.get().last_error == ""


@pytest.mark.django_db(transaction=True)
def test_four_uploaders_ingesting_different_files_at_once_all_succeed():
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    start = threading.Barrier(4)

    def ingest_three(worker: int) -> list[str]:
        try:
            start.wait()
            results = [
                ingest_file(file_name=f"team-{worker}-{n}.md", content=f"# Team {worker}\n\nDesk {n}.".encode())
                for n in range(3)
            ]
            return [result.error for result in results if result.failed]
        finally:
            connection.close()  # this thread's connection

    with ThreadPoolExecutor(max_workers=4) as pool:
        errors = [error for errors in pool.map(ingest_three, range(4)) for error in errors]

    assert errors == []
    assert Source.objects.filter(status=SourceStatus.READY).count() == 12
