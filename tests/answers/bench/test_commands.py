"""The benchmark commands run at tiny sizes, print the promised figures, and never touch the site's database."""
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from answers.bench.retrieval import _bm25s_search, default_rank_bm25_queries, ndcg_at, recall_at
from answers.bench.verify import written_sentences
from answers.pipeline.records import ChunkRecord, SentenceSpan
from corpus_admin.models import Chunk

BENCH_KEYS = {
    "chunks", "ours_build_s", "rank_bm25_build_s", "ours_p50_ms", "ours_p95_ms", "rank_bm25_p50_ms",
    "query_speedup", "peak_rss_mb", "top10_identical", "top10_identical_count", "bm25s_build_s", "bm25s_p50_ms",
    "bm25s_p95_ms", "bm25s_query_ratio", "bm25s_top10_overlap", "ours_bytes_per_chunk",
    "ours_rss_delta_bytes_per_chunk", "update_one_source_s", "merge_delta_s", "cold_start_s",
    "fresh_process_cold_start_s", "fresh_process_first_query_s", "compiled_kernel",
}


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_bench_retrieval_json_reports_every_figure_and_identical_top10():
    result = json.loads(run("bench_retrieval", "--chunks", "300", "--queries", "20", "--json"))
    assert set(result) >= BENCH_KEYS
    assert result["chunks"] == 300
    assert result["top10_identical"] is True
    assert result["ours_p50_ms"] > 0 and result["rank_bm25_p50_ms"] > 0 and result["peak_rss_mb"] > 0


def test_bench_retrieval_counts_every_compared_query_as_identical_to_rank_bm25():
    result = json.loads(run("bench_retrieval", "--chunks", "400", "--queries", "12", "--rank-bm25-queries", "7",
                            "--json"))
    assert result["rank_bm25_queries"] == 7 and result["top10_identical_count"] == 7
    assert 0 < result["bm25s_top10_overlap"] <= 1
    # rank-bm25's tf part and idf in bm25s (they part only on terms in over half of the chunks), overlap per query
    assert result["bm25s_variant"] == {"method": "atire", "idf_method": "robertson", "k1": 1.5, "b": 0.75}
    assert len(result["bm25s_top10_overlap_per_query"]) == 12
    assert result["bm25s_floored_terms"] > 0 and result["bm25s_queries_with_floored_term"] > 0
    assert result["bm25s_top10_overlap_without_floored_term"] >= 0.9
    assert result["update_source_chunks"] == 100


def test_bench_retrieval_text_output_names_all_three_engines():
    text = run("bench_retrieval", "--chunks", "200", "--queries", "5")
    assert "rank-bm25" in text and "bm25s (atire)" in text and "bm25s overlap per query: " in text
    assert "top10_identical: True (5 of 5 queries" in text


def test_bench_retrieval_can_leave_bm25s_out():
    result = json.loads(run("bench_retrieval", "--chunks", "200", "--queries", "5", "--no-bm25s", "--json"))
    assert "bm25s_p50_ms" not in result and result["top10_identical"] is True


def test_default_rank_bm25_sample_shrinks_with_the_corpus():
    assert default_rank_bm25_queries(10_000, 200) == 200
    assert default_rank_bm25_queries(100_000, 200) == 50
    assert default_rank_bm25_queries(1_000_000, 200) == 20
    assert default_rank_bm25_queries(1_000_000, 5) == 5


def test_bm25s_search_returns_its_best_documents_first_and_no_zero_scores():
    import bm25s

    retriever = bm25s.BM25(method="robertson")
    retriever.index([["a", "b"], ["a", "a", "c"], ["d"], ["e"], ["f"]], show_progress=False)
    assert _bm25s_search(retriever, ["a"], 10) == [1, 0]
    assert _bm25s_search(retriever, ["a", "c"], 1) == [1]


@pytest.fixture
def tiny_beir(tmp_path):
    corpus = [
        {"_id": "d1", "title": "Refunds", "text": "Refunds are issued within 30 days."},
        {"_id": "d2", "title": "Uploads", "text": "The upload limit is 200 MB."},
        {"_id": "d3", "title": "Shortcuts", "text": "Press the question mark for shortcuts."},
        {"_id": "d4", "title": "Hours", "text": "Support answers on weekdays."},
    ]
    queries = [{"_id": "q1", "text": "how are refunds issued"}, {"_id": "q2", "text": "upload limit"},
               {"_id": "q9", "text": "not judged in the test split"}]
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(row) for row in corpus) + "\n")
    (tmp_path / "queries.jsonl").write_text("\n".join(json.dumps(row) for row in queries) + "\n")
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\nq2\td4\t1\n")
    return tmp_path


def test_bench_beir_scores_a_tiny_dataset(tiny_beir, tmp_path):
    result = json.loads(run("bench_beir", str(tiny_beir), "--json", "--cache-dir", str(tmp_path / "vectors")))
    assert {"ndcg_at_10", "recall_at_100", "seconds"} <= set(result)
    assert result["queries"] == 2
    # q1 finds d1 first (nDCG 1); q2 finds d2 first but never d4: nDCG (2/1) / (2/1 + 1/log2(3))
    expected_q2 = 2 / (2 + 1 / 1.584962500721156)
    assert result["ndcg_at_10"] == pytest.approx((1 + expected_q2) / 2, abs=1e-4)
    assert result["recall_at_100"] == pytest.approx((1 + 0.5) / 2, abs=1e-4)


def test_bench_beir_rejects_a_folder_that_is_not_beir(tmp_path):
    with pytest.raises(CommandError, match="corpus.jsonl"):
        run("bench_beir", str(tmp_path))


def test_ndcg_uses_graded_gains_and_the_ideal_order_from_qrels():
    judged = {"a": 2, "b": 1}
    assert ndcg_at(["a", "b"], judged) == pytest.approx(1.0)
    assert ndcg_at(["b", "a"], judged) < 1.0
    assert ndcg_at(["x"], judged) == 0.0
    assert recall_at(["a", "x"], judged, 100) == 0.5


@pytest.mark.django_db(transaction=True)
def test_bench_verify_times_sentences_written_from_a_corpus_in_a_throwaway_database():
    corpus = str(Path(__file__).parents[1] / "evaluation" / "corpus")
    result = json.loads(run("bench_verify", "--corpus", corpus, "--rounds", "1", "--json"))

    keys = {"chunks", "sentences", "shown", "p50_ms", "p95_ms", "p99_ms", "max_ms", "cpu_p50_ms", "cpu_p95_ms"}
    assert keys <= set(result)
    assert result["chunks"] > 0 and 0 < result["shown"] < result["sentences"]  # true ones pass, false ones do not
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
    assert 0 < result["cpu_p50_ms"] <= result["cpu_p95_ms"]
    assert not Chunk.objects.exists()  # the site's database was never written


def test_written_sentences_are_true_and_false_by_number_name_and_negation():
    text = "Express delivery to Lisbon takes 2 business days."
    record = ChunkRecord(
        chunk_id="c1", source_id=1, source_title="T", original_name="t.md", audience="public", updated_on=None,
        heading_path=(), line_start=1, line_end=1, text=text, token_count=8, fingerprint="f",
        sentences=(SentenceSpan(0, len(text), 1),),
    )

    assert written_sentences(record, names=["Lisbon", "Porto"]) == [
        "Express delivery to Lisbon takes 2 business days [1].",
        "Express delivery to Lisbon takes 2 business days [1][2].",
        "Express delivery to Lisbon takes 3 business days [1].",
        "Express delivery to Porto takes 2 business days [1].",
        "Express delivery not to Lisbon takes 2 business days [1].",
    ]


@pytest.mark.django_db(transaction=True)
def test_bench_reader_times_the_reader_on_each_golden_question_in_a_throwaway_database():
    here = Path(__file__).parents[1] / "evaluation"
    result = json.loads(run(
        "bench_reader", "--corpus", str(here / "corpus"), "--golden", str(here / "golden.jsonl"), "--rounds", "1",
        "--json",
    ))

    assert {"questions", "answered", "blocks_mean", "p50_ms", "p95_ms", "p99_ms", "max_ms"} <= set(result)
    assert result["questions"] > 0 and 0 < result["answered"] <= result["questions"]
    assert 0 <= result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
    assert not Chunk.objects.exists()  # the site's database was never written


def test_bench_retrieval_times_a_fresh_process_reading_the_index_and_answering():
    result = json.loads(run("bench_retrieval", "--chunks", "200", "--queries", "5", "--no-bm25s", "--json"))
    parts = result["fresh_process_import_s"] + result["fresh_process_read_s"] + result["fresh_process_first_query_s"]
    assert 0 < result["fresh_process_cold_start_s"] == pytest.approx(parts, abs=0.003)


def test_bench_retrieval_no_kernel_times_the_numpy_path_in_both_processes():
    arguments = ("--chunks", "200", "--queries", "5", "--no-bm25s", "--no-kernel", "--json")
    result = json.loads(run("bench_retrieval", *arguments))
    assert result["compiled_kernel"] is False and result["top10_identical"]
