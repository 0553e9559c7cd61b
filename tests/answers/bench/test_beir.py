"""bench_beir: BM25, dense and hybrid on a BEIR folder, with the corpus vectors cached between runs."""
import json
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from answers.bench.beir import bench_beir_methods
from answers.pipeline.embed.model import DIMENSIONS, embeddings_available

CORPUS = [
    {"_id": "d1", "title": "Refunds", "text": "Money is returned to the card within 30 days."},
    {"_id": "d2", "title": "Uploads", "text": "The upload limit is 200 MB."},
    {"_id": "d3", "title": "Backups", "text": "Copies of the data are taken every 6 hours."},
]
QUERIES = [{"_id": "q1", "text": "how do I get my money back"}, {"_id": "q2", "text": "how often is data backed up"}]


@pytest.fixture
def beir(tmp_path):
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(row) for row in CORPUS) + "\n")
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(row) for row in QUERIES) + "\n")
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n")
    return tmp_path


def keyword_embed(texts: list[str]) -> np.ndarray:
    """A stand-in model: one dimension per topic word, so the expected ranking is known."""
    words = ("money", "upload", "data")
    vectors = np.full((len(texts), DIMENSIONS), 1e-3, dtype=np.float32)
    for row, text in enumerate(texts):
        for column, word in enumerate(words):
            vectors[row, column] += word in text.lower()
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_each_method_is_scored_and_vectors_are_cached(beir, tmp_path):
    calls: list[int] = []

    def counting(texts):
        calls.append(len(texts))
        return keyword_embed(texts)

    result = bench_beir_methods(beir, cache_dir=tmp_path / "cache", embed=counting)
    assert result["dense_ndcg_at_10"] == 1.0  # each query's one topic word is its document's
    assert result["ndcg_at_10"] == result["bm25_ndcg_at_10"]
    assert {"bm25", "dense", "hybrid"} == set(result["methods"])
    assert calls == [3, 2]  # the corpus, then the queries
    bench_beir_methods(beir, cache_dir=tmp_path / "cache", embed=counting, weights=[0.3])
    assert calls == [3, 2]  # the second run reads both from the cache


def test_bm25_alone_needs_no_model(beir, tmp_path):
    def no_model(texts):
        raise AssertionError("bm25 alone must not embed")

    result = bench_beir_methods(beir, methods=["bm25"], cache_dir=tmp_path, embed=no_model)
    assert set(result["methods"]) == {"bm25"}


def test_an_unknown_method_is_refused(beir):
    with pytest.raises(CommandError, match="unknown method splade"):
        call_command("bench_beir", str(beir), "--methods", "bm25,splade", stdout=StringIO())


@pytest.mark.skipif(not embeddings_available(), reason="the embedding model is not installed")
def test_the_command_prints_every_method_with_the_real_model(beir, tmp_path):
    out = StringIO()
    call_command("bench_beir", str(beir), "--cache-dir", str(tmp_path), stdout=out)
    text = out.getvalue()
    for method in ("bm25", "dense", "hybrid"):
        assert method in text
    assert "all-MiniLM-L6-v2-onnx-int8" in text


def test_with_sentences_a_document_scores_its_best_sentence(beir, tmp_path):
    result = bench_beir_methods(beir, methods=["dense"], cache_dir=tmp_path, embed=keyword_embed, sentences=True)
    assert result["dense_rows"] == "document and sentences"
    assert result["dense_ndcg_at_10"] == 1.0
