"""The README's benchmark tables: replaced between their markers only, from the benchmarks' JSON."""
import json
from pathlib import Path

import pytest

from answers.bench.readme_tables import (
    SECTIONS,
    MissingMarkers,
    beir_table,
    load_table,
    main,
    reader_table,
    replace_section,
    retrieval_table,
    verify_table,
)

README = """# Site

Intro.

<!-- bench:load -->
old table
<!-- /bench:load -->

Prose after the table stays.
"""


def run(workers_share: float, *, ceiling: float = 1000.0, p95_ms: float = 400.0, errors: int = 0) -> dict:
    report = {"answers_per_s": ceiling * workers_share, "errors": errors, "answered": 500 - errors, "refused": 0,
              "first_sentence_p50_ms": p95_ms / 2, "first_sentence_p95_ms": p95_ms}
    ceiling_report = {"answers_per_s": ceiling, "errors": 0, "answered": 5000, "refused": 0,
                      "first_sentence_p50_ms": 5.0, "first_sentence_p95_ms": 9.0}
    return {"ceiling": ceiling_report, "answers": report, "share_of_ceiling": workers_share}


def test_only_the_text_between_the_markers_is_replaced():
    result = replace_section(README, "load", "| new | table |\n")

    assert result == README.replace("old table", "| new | table |")


def test_replacing_twice_gives_the_same_readme():
    once = replace_section(README, "load", "A")

    assert replace_section(once, "load", "A") == once


@pytest.mark.parametrize(
    "readme",
    ["no markers at all", "<!-- bench:load -->\nonly the opening one", README + README],
)
def test_a_readme_without_exactly_one_pair_of_markers_is_refused_by_name(readme):
    with pytest.raises(MissingMarkers, match="bench:load"):
        replace_section(readme, "load", "x")


def test_the_load_table_gives_each_worker_count_its_share_range_and_two_workers_against_one():
    table = load_table({"1": [run(0.5), run(0.6)], "2": [run(0.45, ceiling=1600), run(0.5, ceiling=1600)]},
                       machine="2 cores")

    rows = table.splitlines()
    assert rows[2] == "| 1 | 1000 | 500-600 | **0.500-0.600** | 0.20 s / **0.40 s** | 0 of 1000 |"
    assert rows[3].startswith("| 2 | 1600 | 720-800 | **0.450-0.500** |")
    assert table.splitlines()[-1].startswith("2 runs of each worker count; ")
    assert "two workers: 1.38x one (mean answers/s)" in table  # 760 / 550
    assert table.endswith("2 cores.")


def test_a_machine_said_as_a_sentence_ends_the_notes_with_one_full_stop():
    table = load_table({"1": [run(0.5)]}, machine="Measured on 2 cores.")

    assert table.endswith("; Measured on 2 cores.")


def test_the_load_averages_at_the_runs_start_are_said_under_the_table():
    table = load_table({"1": [{**run(0.5), "load_average": 2.25}, {**run(0.5), "load_average": 6.0}]})

    assert "load average 2.2-6.0 at the runs' start" in table


def test_errors_of_both_runs_are_counted():
    table = load_table({"1": [run(0.5, errors=3)]})

    assert "| 3 of 500 |" in table


RETRIEVAL_1M = {
    "chunks": 1000000, "queries": 200, "rank_bm25_queries": 20, "ours_build_s": 25.04, "ours_p50_ms": 0.867,
    "ours_p95_ms": 7.86, "ours_bytes_per_chunk": 827, "ours_rss_delta_bytes_per_chunk": 1044,
    "update_one_source_s": 0.058, "update_source_chunks": 100, "merge_delta_s": 2.3, "saved_index_mb": 616.2,
    "save_s": 2.0, "cold_start_s": 1.45, "fresh_process_import_s": 0.26, "fresh_process_read_s": 0.93,
    "fresh_process_first_query_s": 0.001, "fresh_process_cold_start_s": 1.19, "compiled_kernel": False,
    "bm25s_build_s": 96.0, "bm25s_p50_ms": 12.57, "bm25s_p95_ms": 18.9, "bm25s_bytes_per_chunk": 819,
    "bm25s_rss_delta_bytes_per_chunk": 2128, "bm25s_top10_overlap": 0.4812, "bm25s_queries_with_floored_term": 185,
    "bm25s_floored_terms": 23, "bm25s_retrieve_p50_ms": 131.2,
    "bm25s_top10_overlap_with_floored_term": 0.45, "bm25s_top10_overlap_without_floored_term": 0.98,
    "rank_bm25_build_s": 116.3, "rank_bm25_p50_ms": 1872.4, "rank_bm25_p95_ms": 3500.0,
    "top10_identical_count": 20, "peak_rss_mb": 7200.4,
}
VERIFY = {"chunks": 231, "sentences": 2814, "shown": 1760, "p50_ms": 0.225, "p95_ms": 0.399, "p99_ms": 0.551,
          "max_ms": 3.2, "cpu_p50_ms": 0.224, "cpu_p95_ms": 0.4}
READER = {"questions": 108, "answered": 65, "blocks_mean": 3.88, "p50_ms": 1.7, "p95_ms": 3.9, "p99_ms": 5.0,
          "max_ms": 6.1}


def test_the_retrieval_table_sets_each_peer_beside_ours_with_its_time_over_ours():
    rows = retrieval_table(RETRIEVAL_1M, command="bench_retrieval --chunks 1000000").splitlines()

    assert rows[0] == "`bench_retrieval --chunks 1000000`:"
    assert rows[2].startswith("| 1,000,000 chunks | ours | bm25s | rank-bm25 |")
    assert rows[4] == "| build | 25.0 s | 96.0 s | 116 s | 3.8x | 4.6x |"
    assert rows[5] == "| query p50 | **0.867 ms** | 12.6 ms | 1,872 ms | **14.5x** | **2,160x** |"  # 1872.4 / 0.867
    assert rows[6] == "| query p95 | 7.86 ms | 18.9 ms | 3,500 ms | 2.4x | 445x |"


def test_the_retrieval_table_gives_memory_top_10_update_and_cold_start():
    table = retrieval_table(RETRIEVAL_1M, command="x")

    assert "| index memory per chunk (arrays / RSS delta) | 827 / 1,044 bytes | 819 / 2,128 bytes |" in table
    assert "ids and scores identical for 20 of 20 queries" in table
    assert "| replacing one source of 100 chunks (incremental update) | **0.058 s** |" in table
    assert "| cold start in a fresh process (import + read + first query) | **1.19 s** (0.260 + 0.930 + 0.001 s) |" \
        in table
    assert "| 200 for ours and bm25s, the first 20 for rank-bm25 |" in table
    assert "one of the 23 terms in over half the chunks | 0.980 (15 queries) / 0.450 (185) |" in table
    assert "| bm25s's own `retrieve` (top-k selection included), p50 | 131 ms |" in table


def test_a_run_without_bm25s_says_so_instead_of_failing():
    without = {key: value for key, value in RETRIEVAL_1M.items() if not key.startswith("bm25s")}

    table = retrieval_table(without, command="x")

    assert "| query p50 | **0.867 ms** | n/a | 1,872 ms | **n/a** | **2,160x** |" in table
    assert "over half the chunks" not in table


def test_the_verify_table_gives_wall_and_cpu_time_per_sentence():
    table = verify_table(VERIFY, command="manage.py bench_verify --json")

    assert table.splitlines()[-1] == (
        "| 2,814 (1,760) | 231 | 0.225 ms | **0.399 ms** | 0.551 ms | 3.20 ms | 0.224 ms | **0.400 ms** |"
    )


def test_the_reader_table_gives_cpu_time_per_question():
    table = reader_table(READER, command="manage.py bench_reader --json")

    assert table.splitlines()[-1] == "| 108 (65) | 3.88 | 1.70 ms | **3.90 ms** | 5.00 ms | 6.10 ms |"


BEIR = {
    "dataset": "scifact", "split": "test", "documents": 5183, "queries": 300, "model": "m", "dense_rows": "document",
    "ndcg_at_10": 0.6875, "index_seconds": 11.1, "embed_seconds": 250.0, "seconds": 263.2,
    "methods": {"bm25": {"ndcg_at_10": 0.6875, "recall_at_100": 0.9216},
                "dense": {"ndcg_at_10": 0.64, "recall_at_100": 0.93},
                "hybrid": {"ndcg_at_10": 0.7012, "recall_at_100": 0.95}},
}


def test_the_beir_table_gives_each_methods_ranking_quality_then_the_data_set():
    rows = beir_table(BEIR, command="bench_beir x").splitlines()

    assert rows[0] == "`bench_beir x`:"
    assert rows[4:7] == ["| bm25 | **0.6875** | 0.9216 |", "| dense | **0.6400** | 0.9300 |",
                         "| hybrid | **0.7012** | 0.9500 |"]
    assert rows[-1] == (
        "scifact: 5,183 documents, 300 test queries; dense: m, rows per document: document; 263 s in all "
        "(11.1 s BM25 indexing, 250 s embedding or reading cached vectors)."
    )


def test_an_older_beir_result_with_bm25_alone_still_makes_its_row():
    table = beir_table({"dataset": "scifact", "ndcg_at_10": 0.6875, "recall_at_100": 0.9216}, command="x")

    assert "| bm25 | **0.6875** | 0.9216 |" in table


def test_every_table_and_the_machine_are_written_between_their_markers(tmp_path):
    readme = tmp_path / "README.md"
    stale = "".join(f"<!-- bench:{name} -->\nstale table\n<!-- /bench:{name} -->\n" for name in SECTIONS)
    readme.write_text(stale, encoding="utf-8")
    files = {"load": {"1": [run(0.5)], "2": [run(0.4, ceiling=1500)]}, "retrieval": RETRIEVAL_1M,
             "retrieval-1m": RETRIEVAL_1M, "beir": BEIR, "verify": VERIFY, "reader": READER}
    arguments = ["--readme", str(readme), "--machine", "2 cores, x86_64"]
    for name, data in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
        arguments += [f"--{name}", str(tmp_path / f"{name}.json")]

    assert main(arguments) == 0

    text = readme.read_text(encoding="utf-8")
    assert "stale table" not in text
    assert "<!-- bench:machine -->\n2 cores, x86_64\n<!-- /bench:machine -->" in text
    assert text.count("| query p50 | **0.867 ms**") == 2 and "**0.399 ms**" in text and "**3.90 ms**" in text
    assert "two workers: 1.20x one (mean answers/s)" in text


def test_the_command_rewrites_the_readme_file(tmp_path):
    readme, load = tmp_path / "README.md", tmp_path / "load.json"
    readme.write_text(README, encoding="utf-8")
    load.write_text(json.dumps({"1": [run(0.5)]}), encoding="utf-8")

    assert main(["--readme", str(readme), "--load", str(load)]) == 0

    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text and "**0.500**" in text and "Prose after the table stays." in text


@pytest.mark.parametrize("name", SECTIONS)
def test_the_projects_readme_has_one_place_for_each_table_make_bench_writes(name):
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")

    rewritten = replace_section(readme, name, "the table")  # MissingMarkers unless exactly one pair

    assert f"<!-- bench:{name} -->\nthe table\n<!-- /bench:{name} -->" in rewritten
