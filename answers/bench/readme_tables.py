"""Write the README's benchmark tables from the benchmarks' JSON output (`make bench`).

    python -m answers.bench.readme_tables --readme README.md [--load var/bench/load.json]
        [--retrieval var/bench/retrieval.json] [--retrieval-1m var/bench/retrieval-1m.json]
        [--beir var/bench/beir.json] [--verify var/bench/verify.json] [--reader var/bench/reader.json]
        [--machine "..."]

Each table lives between two marker comments, `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`; only what lies
between them is replaced, so the prose around a table stays the author's. Pure: no Django, no timing.
"""
import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

SECTIONS = ("machine", "retrieval", "retrieval-1m", "beir", "verify", "reader", "load")  # what `make bench` writes


class MissingMarkers(ValueError):
    """The README has no (or no complete) pair of markers for a table."""


def replace_section(readme: str, name: str, body: str) -> str:
    """The README with the text between `<!-- bench:name -->` and `<!-- /bench:name -->` replaced by `body`."""
    pattern = re.compile(
        rf"(<!-- bench:{re.escape(name)} -->\n)(.*?)(<!-- /bench:{re.escape(name)} -->)", re.S
    )
    found = pattern.findall(readme)
    if len(found) != 1:
        raise MissingMarkers(f"README needs exactly one <!-- bench:{name} --> ... <!-- /bench:{name} --> pair")
    return pattern.sub(lambda m: m.group(1) + body.rstrip("\n") + "\n" + m.group(3), readme)


def _span(values: Sequence[float], unit: str = "", digits: int = 0) -> str:
    """`low-high unit` over the runs (one figure when they agree)."""
    if not values:
        return "n/a"
    low, high = f"{min(values):.{digits}f}", f"{max(values):.{digits}f}"
    return (low if low == high else f"{low}-{high}") + unit


def load_table(runs_by_workers: Mapping[str, Sequence[Mapping]], *, machine: str = "") -> str:
    """The load table: per worker count, the ceiling, the answers, their share, first sentence and errors.

    `runs_by_workers` maps "1", "2", ... to the `manage.py loadtest --json` objects of its runs (each holding
    `ceiling`, `answers` and `share_of_ceiling`). Two workers are also compared with one by their mean answers/s.
    """
    lines = [
        "| workers | ceiling answers/s | answers/s | share of ceiling | first sentence p50 / p95 | errors |",
        "|---|---|---|---|---|---|",
    ]
    means: dict[str, float] = {}
    for workers in sorted(runs_by_workers, key=int):
        runs = runs_by_workers[workers]
        ceiling = [run["ceiling"]["answers_per_s"] for run in runs]
        answers = [run["answers"]["answers_per_s"] for run in runs]
        shares = [run["share_of_ceiling"] for run in runs if run["share_of_ceiling"] is not None]
        p50 = _seconds(runs, "first_sentence_p50_ms")
        p95 = _seconds(runs, "first_sentence_p95_ms")
        errors = sum(run["answers"]["errors"] + run["ceiling"]["errors"] for run in runs)
        asked = sum(len_of(run["answers"]) for run in runs)
        means[workers] = statistics.fmean(answers) if answers else 0.0
        lines.append(
            f"| {workers} | {_span(ceiling)} | {_span(answers)} | **{_span(shares, digits=3)}** | "
            f"{_span(p50, ' s', 2)} / **{_span(p95, ' s', 2)}** | {errors} of {asked} |"
        )
    notes = [f"{len(runs)} runs of each worker count" for runs in list(runs_by_workers.values())[:1]]
    loads = [run["load_average"] for runs in runs_by_workers.values() for run in runs if "load_average" in run]
    if loads:  # a shared machine's other work slows the answers more than the echo: say how busy it was
        notes.append(f"load average {_span(loads, digits=1)} at the runs' start")
    if "1" in means and "2" in means and means["1"] > 0:
        notes.append(f"two workers: {means['2'] / means['1']:.2f}x one (mean answers/s)")
    if machine:
        notes.append(machine.rstrip("."))  # make bench's machine line is a sentence of its own
    return "\n".join(lines) + ("\n\n" + "; ".join(notes) + "." if notes else "")


def _seconds(runs: Sequence[Mapping], field: str) -> list[float]:
    return [run["answers"][field] / 1000 for run in runs if run["answers"][field] is not None]


def len_of(report: Mapping) -> int:
    """Questions a load report counted (answered, refused and failed)."""
    return report["answered"] + report["refused"] + report["errors"]


def retrieval_table(result: Mapping, *, command: str) -> str:
    """`bench_retrieval --json`: ours against bm25s and rank-bm25 (times and ratios), then update and cold start.

    A ratio is the peer's time over ours, both measured in the same run: above 1, ours is that many times faster.
    """
    get = result.get
    queries, compared = result["queries"], result["rank_bm25_queries"]
    lines = [
        f"`{command}`:",
        "",
        f"| {get('chunks', 0):,} chunks | ours | bm25s | rank-bm25 | bm25s / ours | rank-bm25 / ours |",
        "|---|---|---|---|---|---|",
        _timing_row(result, "build", "build_s", " s"),
        _timing_row(result, "query p50", "p50_ms", " ms", bold=True),
        _timing_row(result, "query p95", "p95_ms", " ms"),
        f"| index memory per chunk (arrays / RSS delta) | {_bytes(get('ours_bytes_per_chunk'))} / "
        f"{_bytes(get('ours_rss_delta_bytes_per_chunk'))} bytes | {_bytes(get('bm25s_bytes_per_chunk'))} / "
        f"{_bytes(get('bm25s_rss_delta_bytes_per_chunk'))} bytes | | | |",
        f"| top 10 | | overlap {_figure(get('bm25s_top10_overlap'))} with ours | ids and scores identical for "
        f"{get('top10_identical_count')} of {compared} queries | | |",
        "",
        "| also measured | value |",
        "|---|---|",
        f"| queries | {queries} for ours and bm25s, the first {compared} for rank-bm25 |",
        f"| replacing one source of {get('update_source_chunks')} chunks (incremental update) | "
        f"**{_figure(get('update_one_source_s'))} s** |",
        f"| merging the update's delta into the main segment | {_figure(get('merge_delta_s'))} s |",
        f"| saved index | {_figure(get('saved_index_mb'))} MB, written in {_figure(get('save_s'))} s |",
        f"| cold start: the saved index read in the process | {_figure(get('cold_start_s'))} s |",
        f"| cold start in a fresh process (import + read + first query) | "
        f"**{_figure(get('fresh_process_cold_start_s'))} s** ({_figure(get('fresh_process_import_s'))} + "
        f"{_figure(get('fresh_process_read_s'))} + {_figure(get('fresh_process_first_query_s'))} s) |",
        f"| peak RSS of the run (all three libraries' indexes) | {_figure(get('peak_rss_mb'))} MB |",
        f"| our search path | {'numba kernel' if get('compiled_kernel') else 'numpy (no compiled kernel)'} |",
    ]
    if get("bm25s_queries_with_floored_term") is not None:  # where bm25s's idf differs from rank-bm25's (README)
        with_term = get("bm25s_queries_with_floored_term")
        lines += [
            f"| bm25s's top-10 overlap with ours: queries without / with one of the "
            f"{get('bm25s_floored_terms')} terms in over half the chunks | "
            f"{_figure(get('bm25s_top10_overlap_without_floored_term'))} ({queries - with_term} queries) / "
            f"{_figure(get('bm25s_top10_overlap_with_floored_term'))} ({with_term}) |",
            f"| bm25s's own `retrieve` (top-k selection included), p50 | {_figure(get('bm25s_retrieve_p50_ms'))} ms |",
        ]
    return "\n".join(lines)


def _timing_row(result: Mapping, label: str, field: str, unit: str, *, bold: bool = False) -> str:
    ours, bm25s, rank = (result.get(f"{peer}_{field}") for peer in ("ours", "bm25s", "rank_bm25"))
    mark = "**" if bold else ""
    return (
        f"| {label} | {mark}{_figure(ours, unit)}{mark} | {_figure(bm25s, unit)} | {_figure(rank, unit)} | "
        f"{mark}{_times(bm25s, ours)}{mark} | {mark}{_times(rank, ours)}{mark} |"
    )


def beir_table(result: Mapping, *, command: str) -> str:
    """`bench_beir --json`: nDCG@10 and Recall@100 per method (bm25, dense, hybrid), then the data set and timings."""
    methods = result.get("methods") or {"bm25": result}
    rows = [f"| {method} | **{scores['ndcg_at_10']:.4f}** | {scores['recall_at_100']:.4f} |"
            for method, scores in methods.items()]
    embedding = f", {_figure(result['embed_seconds'])} s embedding or reading cached vectors" \
        if "embed_seconds" in result else ""
    return (
        f"`{command}`:\n\n| method | nDCG@10 | Recall@100 |\n|---|---|---|\n" + "\n".join(rows) + "\n\n"
        f"{result.get('dataset')}: {result.get('documents', 0):,} documents, {result.get('queries')} "
        f"{result.get('split', 'test')} queries; dense: {result.get('model', 'n/a')}, rows per document: "
        f"{result.get('dense_rows', 'n/a')}; {_figure(result.get('seconds'))} s in all "
        f"({_figure(result.get('index_seconds'))} s BM25 indexing{embedding})."
    )


def verify_table(result: Mapping, *, command: str) -> str:
    """`bench_verify --json`: the verifier's wall-clock and CPU time per sentence."""
    return (
        f"`{command}`:\n\n"
        "| sentences (shown) | chunks | wall p50 | **wall p95** | wall p99 | max | CPU p50 | **CPU p95** |\n"
        "|---|---|---|---|---|---|---|---|\n"
        f"| {result['sentences']:,} ({result['shown']:,}) | {result['chunks']} | {_ms(result['p50_ms'])} | "
        f"**{_ms(result['p95_ms'])}** | {_ms(result['p99_ms'])} | {_ms(result['max_ms'])} | "
        f"{_ms(result['cpu_p50_ms'])} | **{_ms(result['cpu_p95_ms'])}** |"
    )


def reader_table(result: Mapping, *, command: str) -> str:
    """`bench_reader --json`: the extractive reader's CPU time per question."""
    return (
        f"`{command}`:\n\n"
        "| questions (answered) | blocks each | CPU p50 | **CPU p95** | CPU p99 | max |\n"
        "|---|---|---|---|---|---|\n"
        f"| {result['questions']} ({result['answered']}) | {_figure(result['blocks_mean'])} | "
        f"{_ms(result['p50_ms'])} | **{_ms(result['p95_ms'])}** | {_ms(result['p99_ms'])} | "
        f"{_ms(result['max_ms'])} |"
    )


def _ms(value: float) -> str:
    return f"{_figure(value)} ms"


def _figure(value: float | None, unit: str = "") -> str:
    """Three significant figures or so, thousands separated, then the unit; n/a for a figure the run did not make."""
    if value is None:
        return "n/a"
    if isinstance(value, int) or abs(value) >= 100:
        return f"{value:,.0f}{unit}"
    return f"{value:.{1 if abs(value) >= 10 else 2 if abs(value) >= 1 else 3}f}{unit}"


def _bytes(value: int | None) -> str:
    return "n/a" if value is None else f"{value:,}"


def _times(theirs: float | None, ours: float | None) -> str:
    """Their time over ours, `n/a` when either is missing."""
    if theirs is None or not ours:
        return "n/a"
    ratio = theirs / ours
    return f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.1f}x"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m answers.bench.readme_tables", description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, default=Path("README.md"))
    parser.add_argument("--load", type=Path, help="JSON: {workers: [loadtest --json objects]}")
    parser.add_argument("--retrieval", type=Path, help="JSON of manage.py bench_retrieval --chunks 100000 --json")
    parser.add_argument("--retrieval-1m", type=Path, help="JSON of manage.py bench_retrieval --chunks 1000000 --json")
    parser.add_argument("--beir", type=Path, help="JSON of manage.py bench_beir --json")
    parser.add_argument("--verify", type=Path, help="JSON of manage.py bench_verify --json")
    parser.add_argument("--reader", type=Path, help="JSON of manage.py bench_reader --json")
    parser.add_argument("--retrieval-command", default="manage.py bench_retrieval --chunks 100000 --json")
    parser.add_argument("--retrieval-1m-command", default="manage.py bench_retrieval --chunks 1000000 --json")
    parser.add_argument("--beir-command", default="manage.py bench_beir ../shared/datasets/scifact --json")
    parser.add_argument("--machine", default="", help="What the figures were measured on, said under the table.")
    options = parser.parse_args(argv)
    readme = options.readme.read_text(encoding="utf-8")
    tables: dict[str, tuple[Path | None, Callable[[dict], str]]] = {
        "load": (options.load, lambda data: load_table(data, machine=options.machine)),
        "retrieval": (options.retrieval, lambda data: retrieval_table(data, command=options.retrieval_command)),
        "retrieval-1m": (options.retrieval_1m,
                         lambda data: retrieval_table(data, command=options.retrieval_1m_command)),
        "beir": (options.beir, lambda data: beir_table(data, command=options.beir_command)),
        "verify": (options.verify, lambda data: verify_table(data, command="manage.py bench_verify --json")),
        "reader": (options.reader, lambda data: reader_table(data, command="manage.py bench_reader --json")),
    }
    for name, (path, table) in tables.items():
        if path:
            readme = replace_section(readme, name, table(_read(path)))
    if options.machine:  # said once above the Benchmarks' tables, and under the load table
        readme = replace_section(readme, "machine", options.machine)
    options.readme.write_text(readme, encoding="utf-8")
    return 0


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    sys.exit(main())
