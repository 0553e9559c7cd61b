"""The threshold sweep: every case re-decided over ranges of RAG_MIN_COVERAGE, RAG_MIN_SCORE,
RAG_MIN_SENTENCE_COVERAGE and RAG_MIN_ANSWER_SCORE values, one threshold at a time."""
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from answers.evaluation.golden import GoldenCase
from answers.evaluation.metrics import RETRIEVAL_STATES, CaseResult
from answers.pipeline.config import PipelineConfig

COVERAGE_VALUES = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
SCORE_VALUES = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
SENTENCE_COVERAGE_VALUES = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.0)
ANSWER_SCORE_VALUES = (0.0, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
SETTINGS = {
    "min_coverage": "RAG_MIN_COVERAGE",
    "min_score": "RAG_MIN_SCORE",
    "min_sentence_coverage": "RAG_MIN_SENTENCE_COVERAGE",
    "min_answer_score": "RAG_MIN_ANSWER_SCORE",
}

Evaluate = Callable[..., tuple[CaseResult, ...]]  # (cases, *, config) -> results: evaluate_cases, generator bound


@dataclass(frozen=True)
class Flip:
    """A case whose kind of reply at this value differs from the one at the configured value."""

    case_id: str
    expect: str
    configured: str
    here: str


@dataclass(frozen=True)
class SweepPoint:
    """The outcome of every case at one value of one threshold, the other at its configured value."""

    setting: str
    value: float
    configured: bool
    cases: int
    status_accuracy: float
    errors: tuple[str, ...]
    answered_wrongly: int  # replied with sentences where a refusal was right
    refused_wrongly: int  # refused where an answer was right
    unverified_delivered: int
    flips: tuple[Flip, ...]
    tuning_with_facts: float = 0.0  # status accuracy with facts over the cases not held out: what thresholds are set on
    tuning_cases: int = 0
    held_out: tuple[str, ...] = ()  # the ids of the held-out cases: tables count them and never name them


@dataclass(frozen=True)
class KnownMiss:
    """A case the configured thresholds get wrong."""

    case_id: str
    audience: str
    question: str
    expect: str
    actual: str
    facts: str = ""  # facts found of the case's facts, "1/2"; a miss of the right kind is missing some
    retrieval: str = ""  # where the expected source stood for the reader (metrics.RETRIEVAL_STATES)


@dataclass(frozen=True)
class Sweep:
    """Both sweeps and the known misses at the configured values."""

    coverage: tuple[SweepPoint, ...]
    score: tuple[SweepPoint, ...]
    known_misses: tuple[KnownMiss, ...]
    sentence_coverage: tuple[SweepPoint, ...] = ()
    answer_score: tuple[SweepPoint, ...] = ()

    @property
    def series(self) -> tuple[tuple[SweepPoint, ...], ...]:
        """Each threshold's points, in the order reports show them."""
        return tuple(
            points for points in (self.coverage, self.score, self.sentence_coverage, self.answer_score) if points
        )


def run_sweep(
    cases: Sequence[GoldenCase],
    *,
    config: PipelineConfig,
    baseline: Sequence[CaseResult],
    evaluate: Evaluate,
    coverage_values: Sequence[float] = COVERAGE_VALUES,
    score_values: Sequence[float] = SCORE_VALUES,
    sentence_coverage_values: Sequence[float] = SENTENCE_COVERAGE_VALUES,
    answer_score_values: Sequence[float] = ANSWER_SCORE_VALUES,
) -> Sweep:
    """Re-run every case at each value (the configured run is `baseline`) and compare with the configured run."""
    return Sweep(
        coverage=_sweep("min_coverage", coverage_values, cases, config, baseline, evaluate),
        score=_sweep("min_score", score_values, cases, config, baseline, evaluate),
        known_misses=known_misses(baseline),
        sentence_coverage=_sweep("min_sentence_coverage", sentence_coverage_values, cases, config, baseline, evaluate),
        answer_score=_sweep("min_answer_score", answer_score_values, cases, config, baseline, evaluate),
    )


def known_misses(results: Sequence[CaseResult]) -> tuple[KnownMiss, ...]:
    """The tuning cases whose reply is not the expected kind or lacks an expected fact, each with where its expected
    source stood for the reader (held-out misses are only counted)."""
    return tuple(
        KnownMiss(r.case.id, r.case.audience, r.case.question, r.case.expect, r.actual,
                  facts=f"{sum(r.facts_found)}/{len(r.facts_found)}", retrieval=r.retrieval)
        for r in results if not r.ok_with_facts and not r.case.held_out
    )


def misses_by_retrieval(misses: Sequence[KnownMiss]) -> dict[str, int]:
    """How many misses had their expected source in each state (RETRIEVAL_STATES order; "no source" last)."""
    counts = {state: sum(m.retrieval == state for m in misses) for state in RETRIEVAL_STATES}
    counts["no source"] = sum(not m.retrieval for m in misses)
    return counts


def held_out_misses(results: Sequence[CaseResult]) -> tuple[int, int]:
    """How many held-out cases miss, of how many: counts only, so nobody reads which (the held-out discipline)."""
    held = [r for r in results if r.case.held_out]
    return sum(not r.ok for r in held), len(held)


def sweep_point(
    setting: str, value: float, results: Sequence[CaseResult], *, baseline: Sequence[CaseResult], configured: bool
) -> SweepPoint:
    """Summarise one value's results against the configured run's."""
    before = {r.case.id: r.actual for r in baseline}
    correct = sum(r.ok for r in results)
    tuning = [r for r in results if not r.case.held_out]
    return SweepPoint(
        setting=setting,
        value=value,
        configured=configured,
        cases=len(results),
        status_accuracy=correct / len(results) if results else 0.0,
        errors=tuple(r.case.id for r in results if not r.ok),
        answered_wrongly=sum(r.actual == "answered" and r.case.expect != "answered" for r in results),
        refused_wrongly=sum(r.case.expect == "answered" and r.actual != "answered" for r in results),
        unverified_delivered=sum(len(r.unverified) for r in results),
        flips=tuple(
            Flip(r.case.id, r.case.expect, before[r.case.id], r.actual)
            for r in results
            if r.actual != before.get(r.case.id, r.actual)
        ),
        tuning_with_facts=sum(r.ok_with_facts for r in tuning) / len(tuning) if tuning else 0.0,
        tuning_cases=len(tuning),
        held_out=tuple(r.case.id for r in results if r.case.held_out),
    )


def _sweep(
    setting: str,
    values: Sequence[float],
    cases: Sequence[GoldenCase],
    config: PipelineConfig,
    baseline: Sequence[CaseResult],
    evaluate: Evaluate,
) -> tuple[SweepPoint, ...]:
    current = float(getattr(config, setting))
    points = []
    for value in sorted({float(v) for v in values} | {current}):
        if value == current:
            results = baseline
        else:
            changed: dict[str, Any] = {setting: value}  # a field named at run time: mypy cannot check its type
            results = evaluate(cases, config=dataclasses.replace(config, **changed))
        points.append(sweep_point(setting, value, results, baseline=baseline, configured=value == current))
    return tuple(points)
