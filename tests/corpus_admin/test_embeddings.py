"""Chunk vectors at ingest: made only with RAG_EMBEDDINGS on, never the reason an ingest fails."""
import numpy as np
import pytest

import corpus_admin.embeddings as embeddings
from answers.pipeline.embed import similarity
from answers.pipeline.embed.model import DIMENSIONS, embeddings_available
from corpus_admin.models import Chunk, TextVector
from corpus_admin.selectors import chunk_records

pytestmark = pytest.mark.django_db
DOC = "# Security\n\nBackups are taken every 6 hours. Backups are kept for 35 days.\n"


@pytest.fixture(autouse=True)
def _forget_fake_vectors():
    """The index build seeds the process-wide sentence-vector cache: a stand-in model's vectors must not stay."""
    yield
    similarity.forget_for_tests()


def fake_embed(texts: list[str]) -> np.ndarray:
    vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    vectors[:, 0] = 1.0
    return vectors


def test_with_embeddings_off_nothing_is_embedded(ingest):
    ingest("security.md", DOC)
    assert Chunk.objects.count() == 1
    assert TextVector.objects.count() == 0
    assert embeddings.chunk_vectors(chunk_records()) == {}


@pytest.mark.embeddings
@pytest.mark.skipif(not embeddings_available(), reason="the embedding model is not installed")
def test_a_failing_model_leaves_the_ingest_served_and_lexical(ingest, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("model exploded")

    monkeypatch.setattr(embeddings, "ensure_vectors", broken)
    result = ingest("security.md", DOC)
    assert result.chunk_count == 1
    assert TextVector.objects.count() == 0
    assert embeddings.chunk_vectors(chunk_records()) == {}


@pytest.mark.embeddings
@pytest.mark.skipif(not embeddings_available(), reason="the embedding model is not installed")
def test_the_index_embeds_old_chunks_up_to_a_bound(ingest, settings):
    settings.RAG_EMBEDDINGS = False
    ingest("security.md", DOC)  # ingested while embeddings were off
    settings.RAG_EMBEDDINGS = True
    assert embeddings.chunk_vectors(chunk_records(), embed=fake_embed, embed_at_most=0) == {}
    vectors = embeddings.chunk_vectors(chunk_records(), embed=fake_embed)
    [(chunk_id, rows)] = vectors.items()
    assert rows.shape == (3, DIMENSIONS)  # the chunk, then its two sentences
    assert TextVector.objects.count() == 3
