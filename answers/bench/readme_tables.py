"""Write the README's benchmark tables from the benchmarks' JSON output (`make bench`).

    python -m answers.bench.readme_tables --readme README.md [--load var/bench/load.json]
        [--retrieval var/bench/retrieval.json] [--beir var/bench/beir.json] [--machine "..."]

Each table lives between two marker comments, `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`; only what lies
between them is replaced, so the prose around a table stays the author's. Pure: no Django, no timing.
"""
import argparse
import json
import re
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


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
    notes = [f"{len(runs)} runs" for runs in list(runs_by_workers.values())[:1]]
    loads = [run["load_average"] for runs in runs_by_workers.values() for run in runs if "load_average" in run]
    if loads:  # a shared machine's other work slows the answers more than the echo: say how busy it was
        notes.append(f"load average {_span(loads, digits=1)} at the runs' start")
    if "1" in means and "2" in means and means["1"] > 0:
        notes.append(f"two workers: {means['2'] / means['1']:.2f}x one (mean answers/s)")
    if machine:
        notes.append(machine)
    return "\n".join(lines) + ("\n\n" + "; ".join(notes) + "." if notes else "")


def _seconds(runs: Sequence[Mapping], field: str) -> list[float]:
    return [run["answers"][field] / 1000 for run in runs if run["answers"][field] is not None]


def len_of(report: Mapping) -> int:
    """Questions a load report counted (answered, refused and failed)."""
    return report["answered"] + report["refused"] + report["errors"]


def key_value_table(result: Mapping, *, command: str) -> str:
    """A benchmark's flat JSON object as a two-column table, under the command that produced it."""
    rows = [f"| `{key}` | {_cell(value)} |" for key, value in result.items() if not isinstance(value, dict | list)]
    return f"`{command}`:\n\n| figure | value |\n|---|---|\n" + "\n".join(rows)


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value).replace("|", "\\|")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m answers.bench.readme_tables", description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, default=Path("README.md"))
    parser.add_argument("--load", type=Path, help="JSON: {workers: [loadtest --json objects]}")
    parser.add_argument("--retrieval", type=Path, help="JSON of manage.py bench_retrieval --json")
    parser.add_argument("--beir", type=Path, help="JSON of manage.py bench_beir --json")
    parser.add_argument("--retrieval-command", default="manage.py bench_retrieval --chunks 100000 --json")
    parser.add_argument("--beir-command", default="manage.py bench_beir ../shared/datasets/scifact --json")
    parser.add_argument("--machine", default="", help="What the figures were measured on, said under the table.")
    options = parser.parse_args(argv)
    readme = options.readme.read_text(encoding="utf-8")
    if options.load:
        readme = replace_section(readme, "load", load_table(_read(options.load), machine=options.machine))
    if options.retrieval:
        table = key_value_table(_read(options.retrieval), command=options.retrieval_command)
        readme = replace_section(readme, "retrieval", table)
    if options.beir:
        readme = replace_section(readme, "beir", key_value_table(_read(options.beir), command=options.beir_command))
    options.readme.write_text(readme, encoding="utf-8")
    return 0


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    sys.exit(main())
