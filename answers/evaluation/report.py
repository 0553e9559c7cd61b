"""What the evaluation reports, as rows shared by the terminal, the JSON file, report.md and report.html."""
import dataclasses
import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.template.loader import render_to_string

from answers.evaluation.corpus import CorpusLoad
from answers.evaluation.golden import KINDS
from answers.evaluation.markdown import known_misses_markdown, report_markdown
from answers.evaluation.metrics import ACTUAL_KINDS, CaseResult, Metrics, summarise
from answers.evaluation.plot import sweep_plot
from answers.evaluation.replay_metrics import ReplayRun
from answers.evaluation.replay_report import HEADER as REPLAY_HEADER
from answers.evaluation.replay_report import outcome_line, replay_json, replay_rows
from answers.evaluation.sweep import (
    SETTINGS,
    KnownMiss,
    Sweep,
    SweepPoint,
    held_out_misses,
    known_misses,
    misses_by_retrieval,
)
from answers.pipeline.config import PipelineConfig

TEMPLATE = "answers/evaluation/report.html"


@dataclass(frozen=True)
class Run:
    """Everything one evaluation run produced."""

    golden: str
    corpus: str
    config: PipelineConfig
    metrics: Metrics
    results: tuple[CaseResult, ...]
    load: CorpusLoad | None = None
    sweep: Sweep | None = None
    replay: ReplayRun | None = None

    @property
    def known_misses(self) -> tuple[KnownMiss, ...]:
        return self.sweep.known_misses if self.sweep else known_misses(self.results)

    @property
    def held_out_misses(self) -> tuple[int, int]:
        """Held-out cases that miss, of how many (counted, never listed)."""
        return held_out_misses(self.results)

    @property
    def parts(self) -> dict[str, Metrics]:
        """The metrics of the tuning and the held-out cases apart (none when no case is held out)."""
        return part_metrics(self.results, k=self.metrics.k)


def part_metrics(results: Sequence[CaseResult], *, k: int) -> dict[str, Metrics]:
    """{"tuning": ..., "held-out": ...} over the cases of each part, or {} when no case is held out."""
    held = tuple(r for r in results if r.case.held_out)
    if not held:
        return {}
    return {"tuning": summarise([r for r in results if not r.case.held_out], k=k), "held-out": summarise(held, k=k)}


def ratio(value: float | None, part: int, whole: int) -> str:
    """A ratio with the counts it is made of: "0.875 (7/8)", or "n/a (0/0)"."""
    return f"{'n/a' if value is None else f'{value:.3f}'} ({part}/{whole})"


def metric_rows(m: Metrics) -> list[tuple[str, str]]:
    """The overall table: metric name and value."""
    return [
        ("Status accuracy", ratio(m.status_accuracy, m.correct, m.cases)),
        ("Status accuracy with facts", ratio(m.status_accuracy_with_facts, m.correct_with_facts, m.cases)),
        (f"Retrieval recall@{m.k}", ratio(m.recall_at_k, m.retrieval_hits, m.retrieval_cases)),
        ("Citation precision", ratio(m.citation_precision, m.citations_correct, m.citations_total)),
        ("Citation recall", ratio(m.citation_recall, m.cited_cases, m.answer_cases)),
        ("Fact recall", ratio(m.fact_recall, m.facts_found, m.facts_total)),
        ("Unverified sentences delivered", f"{m.unverified_delivered} of {m.sentences_delivered}"),
        ("Forbidden text delivered", str(m.forbidden_delivered)),
        ("Latency p50", f"{m.latency_p50_ms:.1f} ms"),
        ("Latency p95", f"{m.latency_p95_ms:.1f} ms"),
    ]


def confusion_rows(m: Metrics) -> list[tuple[str, list[int]]]:
    """Expected kind (rows) against actual kind (columns ACTUAL_KINDS)."""
    return [(expected, [m.confusion[expected][actual] for actual in ACTUAL_KINDS]) for expected in KINDS]


def case_row(r: CaseResult) -> dict[str, Any]:
    """One case as the per-case tables show it."""
    return {
        "id": r.case.id,
        "audience": r.case.audience,
        "question": r.case.question,
        "expected": r.case.expect,
        "actual": r.actual,
        "ok": r.ok,
        "facts": f"{sum(r.facts_found)}/{len(r.facts_found)}",
        "retrieval": r.retrieval or "none listed",
        "citations": f"{r.correct_citations}/{len(r.citations)}",
        "cited": ", ".join(dict.fromkeys(name or chunk_id for chunk_id, name in r.citations)),
        "latency": f"{r.latency_ms:.0f} ms",
        "answer": r.answer,
        "unverified": [f"{text} ({'; '.join(reasons)})" for text, reasons in r.unverified],
        "forbidden": list(r.forbidden_found),
    }


def sweep_row(p: SweepPoint) -> dict[str, Any]:
    """One sweep value as its table row."""
    return {
        "value": f"{p.value:g}" + (" (configured)" if p.configured else ""),
        "accuracy": ratio(p.status_accuracy, p.cases - len(p.errors), p.cases),
        "tuning_with_facts": ratio(p.tuning_with_facts, round(p.tuning_with_facts * p.tuning_cases), p.tuning_cases),
        "errors": len(p.errors),
        "answered_wrongly": p.answered_wrongly,
        "refused_wrongly": p.refused_wrongly,
        "unverified": p.unverified_delivered,
        "flips": _named(
            [f"{f.case_id} {f.configured}→{f.here} {'✓' if f.here == f.expect else '✗'}"
             for f in p.flips if f.case_id not in p.held_out],
            held_out=sum(f.case_id in p.held_out for f in p.flips),
        ),
        "error_ids": _named([i for i in p.errors if i not in p.held_out],
                            held_out=sum(i in p.held_out for i in p.errors)),
    }


def _named(items: Sequence[str], *, held_out: int) -> str:
    """Tuning cases by name, held-out ones only counted: "a, b and 2 held-out", or "none"."""
    named = ", ".join(items)
    if held_out:
        return f"{named} and {held_out} held-out" if named else f"{held_out} held-out"
    return named or "none"


def sweep_tables(sweep: Sweep | None) -> list[dict[str, Any]]:
    """Each sweep's title, rows and plot."""
    if sweep is None:
        return []
    return [
        {"title": SETTINGS[points[0].setting], "rows": [sweep_row(p) for p in points], "plot": sweep_plot(points)}
        for points in sweep.series
    ]


def config_rows(config: PipelineConfig) -> list[tuple[str, str]]:
    """The thresholds the configured run used."""
    return [
        ("RAG_MIN_SCORE", f"{config.min_score:g}"),
        ("RAG_MIN_COVERAGE", f"{config.min_coverage:g}"),
        ("RAG_TOP_K", str(config.top_k)),
        ("RAG_MIN_SENTENCE_COVERAGE", f"{config.min_sentence_coverage:g}"),
        ("RAG_MIN_ANSWER_SCORE", f"{config.min_answer_score:g}"),
        ("RAG_MIN_OVERLAP", f"{config.min_overlap:g}"),
    ]


def run_json(run: Run) -> dict[str, Any]:
    """Every metric, every case, the corpus load, the sweep and the known misses, as one JSON object."""
    metrics = dataclasses.asdict(run.metrics)
    return {
        **metrics,
        "golden": run.golden,
        "corpus": run.corpus,
        "config": dict(config_rows(run.config)),
        "ingest": None if run.load is None else dataclasses.asdict(run.load),
        "cases": [
            {
                **case_row(r),
                "category": r.case.category,
                "held_out": r.case.held_out,
                "sources": list(r.case.sources),
                "retrieval_hit": r.retrieval_hit,
                "citations": [{"chunk_id": c, "source": name} for c, name in r.citations],
                "correct_citations": r.correct_citations,
                "facts_found": list(r.facts_found),
                "latency_ms": r.latency_ms,
            }
            for r in run.results
        ],
        "sweep": None if run.sweep is None else {
            "coverage": [dataclasses.asdict(p) for p in run.sweep.coverage],
            "score": [dataclasses.asdict(p) for p in run.sweep.score],
            "sentence_coverage": [dataclasses.asdict(p) for p in run.sweep.sentence_coverage],
            "answer_score": [dataclasses.asdict(p) for p in run.sweep.answer_score],
        },
        "known_misses": [dataclasses.asdict(m) for m in run.known_misses],
        "misses_by_retrieval": misses_by_retrieval(run.known_misses),
        "held_out_misses": dict(zip(("misses", "cases"), run.held_out_misses, strict=True)),
        "parts": {name: dataclasses.asdict(metrics) for name, metrics in run.parts.items()},
        "replay": None if run.replay is None else replay_json(run.replay),
    }


def report_context(run: Run) -> dict[str, Any]:
    """What report.html and report.md show."""
    return {
        "golden": run.golden,
        "corpus": run.corpus,
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "config": config_rows(run.config),
        "load": run.load,
        "metrics": metric_rows(run.metrics),
        "parts": [(name, metric_rows(metrics)) for name, metrics in run.parts.items()],
        "kinds": ACTUAL_KINDS,
        "confusion": confusion_rows(run.metrics),
        "cases": [case_row(r) for r in run.results if not r.case.held_out],  # held-out: counted in its part only
        "sweeps": sweep_tables(run.sweep),
        "known_misses": run.known_misses,
        "misses_by_retrieval": misses_by_retrieval(run.known_misses),
        "held_out_misses": run.held_out_misses,
        "replay": None if run.replay is None else {
            "file": run.replay.path,
            "header": REPLAY_HEADER,
            "rows": replay_rows(run.replay),
            "wrong": [outcome_line(o) for o in run.replay.wrong],
            "problems": run.replay.problems,
        },
    }


def write_json(path: Path | str, run: Run) -> Path:
    """Write the JSON results; the folder is created if needed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run_json(run), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_reports(directory: Path | str, run: Run) -> tuple[Path, ...]:
    """Write report.html (self-contained), report.md and known_misses.md into the folder."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    context = report_context(run)
    files = {
        "report.html": render_to_string(TEMPLATE, context),
        "report.md": report_markdown(context),
        "known_misses.md": known_misses_markdown(
            context["known_misses"], golden=run.golden, held_out=context["held_out_misses"]),
    }
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return tuple(directory / name for name in files)
