"""The README's benchmark tables: replaced between their markers only, from the benchmarks' JSON."""
import json

import pytest

from answers.bench.readme_tables import MissingMarkers, key_value_table, load_table, main, replace_section

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
    assert "two workers: 1.38x one (mean answers/s)" in table  # 760 / 550
    assert table.endswith("2 cores.")


def test_the_load_averages_at_the_runs_start_are_said_under_the_table():
    table = load_table({"1": [{**run(0.5), "load_average": 2.25}, {**run(0.5), "load_average": 6.0}]})

    assert "load average 2.2-6.0 at the runs' start" in table


def test_errors_of_both_runs_are_counted():
    table = load_table({"1": [run(0.5, errors=3)]})

    assert "| 3 of 500 |" in table


def test_a_benchmarks_flat_figures_become_rows_under_its_command():
    table = key_value_table({"ndcg_at_10": 0.6875, "dataset": "scifact", "per_query": [1, 2]}, command="bench_beir x")

    assert table.startswith("`bench_beir x`:")
    assert "| `ndcg_at_10` | 0.6875 |" in table
    assert "per_query" not in table


def test_the_command_rewrites_the_readme_file(tmp_path):
    readme, load = tmp_path / "README.md", tmp_path / "load.json"
    readme.write_text(README, encoding="utf-8")
    load.write_text(json.dumps({"1": [run(0.5)]}), encoding="utf-8")

    assert main(["--readme", str(readme), "--load", str(load)]) == 0

    text = readme.read_text(encoding="utf-8")
    assert "old table" not in text and "**0.500**" in text and "Prose after the table stays." in text
