"""Migrations that change data: what rows written before them read as after them."""
import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE_CHUNK_AUDIENCE = [("corpus_admin", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_chunks_written_before_chunks_had_an_audience_take_their_source_audience():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_CHUNK_AUDIENCE)
    old = executor.loader.project_state(BEFORE_CHUNK_AUDIENCE).apps
    Source, Chunk = old.get_model("corpus_admin", "Source"), old.get_model("corpus_admin", "Chunk")
    for n, audience in enumerate(("public", "partner", "internal")):
        source = Source.objects.create(slug=f"doc-{n}", original_name=f"doc-{n}.md", title=f"Doc {n}",
                                       audience=audience, version=2)
        for version in (1, 2):
            Chunk.objects.create(chunk_id=f"doc-{n}-v{version}-c01", source=source, version=version, ordinal=1,
                                 line_start=1, line_end=1, text="text", token_count=1, fingerprint="f")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from corpus_admin.models import Chunk as CurrentChunk

    assert dict(CurrentChunk.objects.values_list("chunk_id", "audience")) == {
        "doc-0-v1-c01": "public", "doc-0-v2-c01": "public",
        "doc-1-v1-c01": "partner", "doc-1-v2-c01": "partner",
        "doc-2-v1-c01": "internal", "doc-2-v2-c01": "internal",
    }


BEFORE_PATH_KEYS = [("corpus_admin", "0002_chunk_audience")]


@pytest.mark.django_db(transaction=True)
def test_sources_written_before_path_keys_are_keyed_by_their_file_name_and_keep_every_chunk_id():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PATH_KEYS)
    old = executor.loader.project_state(BEFORE_PATH_KEYS).apps
    Source, Chunk = old.get_model("corpus_admin", "Source"), old.get_model("corpus_admin", "Chunk")
    for n in range(2):
        source = Source.objects.create(slug=f"index-{n}", original_name=f"index-{n}.txt", title=f"Doc {n}", version=1)
        Chunk.objects.create(chunk_id=f"index-{n}-v1-c01", source=source, version=1, ordinal=1, line_start=1,
                             line_end=1, text="text", token_count=1, fingerprint="f", audience="public")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from corpus_admin.models import Chunk as CurrentChunk
    from corpus_admin.models import Source as CurrentSource

    paths = dict(CurrentSource.objects.values_list("slug", "path"))
    assert paths == {"index-0": "index-0.txt", "index-1": "index-1.txt"}
    assert sorted(CurrentChunk.objects.values_list("chunk_id", "page", "sentences")) == [
        ("index-0-v1-c01", None, []), ("index-1-v1-c01", None, []),
    ]


@pytest.mark.django_db(transaction=True)
def test_every_chunk_page_written_before_path_keys_still_opens_and_a_new_upload_continues_its_source(client):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_PATH_KEYS)
    old = executor.loader.project_state(BEFORE_PATH_KEYS).apps
    Source, Chunk = old.get_model("corpus_admin", "Source"), old.get_model("corpus_admin", "Chunk")
    # As ingestion wrote them when sources were keyed by file name: a slug from the name, a suffix on a collision.
    written = [("refund-policy", "refund-policy.md", "public", "ready"), ("refund-policy-2", "Refund Policy.md",
               "partner", "ready"), ("old-prices", "old-prices.txt", "internal", "withdrawn")]
    for slug, name, audience, status in written:
        source = Source.objects.create(slug=slug, original_name=name, title=name, audience=audience, version=2,
                                       status=status, updated_on=dt.date(2025, 3, 1))
        for version in (1, 2):
            Chunk.objects.create(
                chunk_id=f"{slug}-v{version}-c01", source=source, version=version, ordinal=1, line_start=1, line_end=1,
                text=f"{name} version {version} says refunds take {version * 5} days.", token_count=9,
                fingerprint="f", audience=audience,
                superseded_at=timezone.now() if version == 1 else None,
                withdrawn_at=timezone.now() if status == "withdrawn" else None,
            )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from django.contrib.auth.models import User

    from corpus_admin.ingestion import UPDATED, ingest_file
    from corpus_admin.models import Chunk as CurrentChunk

    client.force_login(User.objects.create_user("sue-staff", password="pw-staff-123", is_staff=True))
    for chunk_id, text in CurrentChunk.objects.values_list("chunk_id", "text"):
        response = client.get(f"/chunks/{chunk_id}/")
        assert response.status_code == 200, chunk_id
        assert text in response.content.decode()
    assert "superseded by version 2" in client.get("/chunks/refund-policy-2-v1-c01/").content.decode()

    result = ingest_file(file_name="Refund Policy.md", content=b"# Refunds\n\nRefunds take 3 days.")

    assert (result.outcome, result.version) == (UPDATED, 3)
    assert CurrentChunk.objects.current().get(source__path="Refund Policy.md").chunk_id == "refund-policy-2-v3-c01"
    assert client.get("/chunks/refund-policy-2-v2-c01/").status_code == 200
