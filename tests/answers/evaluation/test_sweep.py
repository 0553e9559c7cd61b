"""The sweep: each value re-run with one threshold changed, compared with the configured run."""
from answers.evaluation.golden import GoldenCase
from answers.evaluation.metrics import CaseResult
from answers.evaluation.sweep import Flip, run_sweep, sweep_point
from answers.pipeline.config import PipelineConfig

CASES = (
    GoldenCase("a", "qa", "public", "answered", (), ()),
    GoldenCase("b", "qb", "public", "no_material", (), ()),
    GoldenCase("c", "qc", "public", "unsupported", (), ()),
)


def results(*kinds: str) -> tuple[CaseResult, ...]:
    return tuple(
        CaseResult(case, kind, "", 0, None, (), 0, (), (), (), 1.0) for case, kind in zip(CASES, kinds, strict=True)
    )


def test_sweep_point_counts_errors_by_kind_and_flips_against_the_configured_run():
    configured = results("answered", "unsupported", "unsupported")
    here = results("no_material", "no_material", "answered")

    point = sweep_point("min_coverage", 0.9, here, baseline=configured, configured=False)

    assert point.errors == ("a", "c") and point.status_accuracy == 1 / 3
    assert (point.answered_wrongly, point.refused_wrongly) == (1, 1)
    assert point.flips == (
        Flip("a", "answered", "answered", "no_material"),
        Flip("b", "no_material", "unsupported", "no_material"),
        Flip("c", "unsupported", "unsupported", "answered"),
    )


def test_run_sweep_reruns_each_other_value_with_one_threshold_changed():
    config = PipelineConfig(min_coverage=0.6, min_score=1.0)
    baseline = results("answered", "no_material", "answered")
    asked: list[tuple[float, float]] = []

    def evaluate(cases, *, config):
        asked.append((config.min_coverage, config.min_score))
        # a strict gate refuses everything
        return results(*["no_material"] * 3) if config.min_coverage >= 0.8 or config.min_score >= 5 else baseline

    sweep = run_sweep(CASES, config=config, baseline=baseline, evaluate=evaluate,
                      coverage_values=[0.4, 0.8], score_values=[0, 5], sentence_coverage_values=[],
                      answer_score_values=[])

    assert asked == [(0.4, 1.0), (0.8, 1.0), (0.6, 0.0), (0.6, 5.0)]  # the configured values are not re-run
    assert [(p.value, p.configured) for p in sweep.coverage] == [(0.4, False), (0.6, True), (0.8, False)]
    assert [len(p.errors) for p in sweep.coverage] == [1, 1, 2]
    assert [f.case_id for f in sweep.score[-1].flips] == ["a", "c"]
    assert [(m.case_id, m.expect, m.actual) for m in sweep.known_misses] == [("c", "unsupported", "answered")]


def test_answer_score_sweep_reruns_with_only_that_threshold_changed_and_reports_the_tuning_part():
    config = PipelineConfig(min_answer_score=0.5)
    baseline = results("answered", "no_material", "answered")
    asked: list[float] = []

    def evaluate(cases, *, config):
        asked.append(config.min_answer_score)
        return results(*["unsupported"] * 3) if config.min_answer_score >= 0.9 else baseline

    sweep = run_sweep(CASES, config=config, baseline=baseline, evaluate=evaluate, coverage_values=[],
                      score_values=[], sentence_coverage_values=[], answer_score_values=[0.2, 0.9])

    assert asked == [0.2, 0.9]
    assert [(p.setting, p.value, p.configured) for p in sweep.answer_score] == [
        ("min_answer_score", 0.2, False), ("min_answer_score", 0.5, True), ("min_answer_score", 0.9, False)
    ]
    assert (sweep.answer_score[-1].refused_wrongly, sweep.answer_score[-1].tuning_with_facts) == (1, 1 / 3)
    assert sweep.answer_score[0].tuning_cases == 3
