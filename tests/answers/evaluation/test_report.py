"""The report files: tables, confusion matrix and sweep plot, with untrusted text shown literally."""
import pytest

from answers.evaluation.golden import GoldenCase
from answers.evaluation.markdown import md_cell
from answers.evaluation.metrics import CaseResult, summarise
from answers.evaluation.plot import sweep_plot
from answers.evaluation.report import Run, write_reports
from answers.evaluation.sweep import Sweep, known_misses, sweep_point
from answers.pipeline.config import PipelineConfig

HOSTILE = "<script>alert(1)</script>{{ x }}{% now 'Y' %}"


def result(question: str, answer: str, *, expect="answered", actual="answered") -> CaseResult:
    case = GoldenCase("hostile", question, "public", expect, ("a.md",), (("x",),))
    return CaseResult(case, actual, answer, 1, True, (("a-c1", "a.md"),), 1, (False,), (), (), 3.0)


@pytest.fixture
def run() -> Run:
    results = (result(HOSTILE, f"Answer {HOSTILE}.", expect="unsupported"),)
    points = tuple(
        sweep_point("min_coverage", v, results, baseline=results, configured=v == 0.6) for v in (0.3, 0.6, 0.9)
    )
    sweep = Sweep(coverage=points, score=points, known_misses=known_misses(results))
    return Run("golden.jsonl", "corpus", PipelineConfig(), summarise(results, k=8), results, sweep=sweep)


def test_report_html_shows_untrusted_text_escaped_and_loads_nothing(tmp_path, run):
    write_reports(tmp_path, run)
    html = (tmp_path / "report.html").read_text()

    assert "&lt;script&gt;alert(1)&lt;/script&gt;{{ x }}{% now &#x27;Y&#x27; %}" in html
    assert "<script" not in html and "src=" not in html and "href=" not in html
    assert "<svg" in html and "<polyline" in html
    assert 'id="confusion"' in html and 'id="known-misses"' in html


def test_report_md_and_known_misses_escape_html_and_markdown(tmp_path, run):
    write_reports(tmp_path, run)
    markdown = (tmp_path / "report.md").read_text()
    misses = (tmp_path / "known_misses.md").read_text()

    assert "<script>" not in markdown and "&lt;script&gt;alert(1)&lt;/script&gt;" in markdown
    assert "| Status accuracy | 0.000 (0/1) |" in markdown
    assert "| hostile | public | unsupported | answered | 0/1 |" in misses


def test_known_misses_say_where_each_expected_source_stood_and_count_fact_misses(tmp_path):
    base = result("How long do refunds take?", "Refunds exist.")
    fact_miss = CaseResult(**{**base.__dict__, "retrieval": "retrieved, not issued"})
    results = (fact_miss, CaseResult(**{**base.__dict__, "case": GoldenCase("ok", "q", "public", "answered", (), ()),
                                        "facts_found": ()}))
    write_reports(tmp_path, Run("golden.jsonl", "corpus", PipelineConfig(), summarise(results, k=8), results))
    misses = (tmp_path / "known_misses.md").read_text()

    assert "| hostile | public | answered | answered | 0/1 | retrieved, not issued |" in misses
    assert "Misses by expected source: not retrieved 0, retrieved, not issued 1," in misses
    assert "| ok |" not in misses


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("a | b", "a \\| b"),
        ("line\nbreak", "line break"),
        ("<b>*x*</b>", "&lt;b&gt;\\*x\\*&lt;/b&gt;"),
        ("[link](http://x)", "\\[link\\](http://x)"),
    ],
)
def test_md_cell_shows_text_literally(text, cell):
    assert md_cell(text) == cell


def test_plot_marks_the_configured_value_and_scales_errors(run):
    results = run.results
    points = (
        sweep_point("min_score", 0.0, results, baseline=results, configured=False),
        sweep_point("min_score", 1.0, results, baseline=results, configured=True),
        sweep_point("min_score", 4.0, (), baseline=results, configured=False),
    )

    plot = sweep_plot(points, width=440, height=250)

    assert plot.title == "Errors by RAG_MIN_SCORE"
    assert [t.label for t in plot.x_ticks] == ["0", "1", "4"]
    assert plot.marker == plot.x_ticks[1].at == round(44 + (424 - 44) / 4, 1)
    errors = plot.series[0]
    assert [y for _, y, _ in errors.dots] == [plot.top, plot.top, plot.bottom]  # 1, 1, 0 errors; the axis tops at 1
