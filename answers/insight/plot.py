"""Geometry of the activity plot: numbers only (the admin template draws them as inline SVG, every label escaped).

Counts per day (answered, each refusal kind) against the left axis, the median time to the first sentence against
the right; the same Tick and Series as the evaluation's sweep plot (answers/evaluation/plot.py).
"""
import math
from collections.abc import Sequence
from dataclasses import dataclass

from answers.evaluation.plot import Series, Tick
from answers.insight.activity import DayActivity

COUNTS = (  # (label, css class, how to count a day)
    ("answered", "answered", lambda d: d.answered),
    ("refused: no material", "no_material", lambda d: d.refused.get("no_material", 0)),
    ("refused: conflict", "conflict", lambda d: d.refused.get("conflict", 0)),
    ("refused: unsupported", "unsupported", lambda d: d.refused.get("unsupported", 0)),
)
TIME_LABEL = "median time to first sentence"


@dataclass(frozen=True)
class ActivityPlot:
    """The whole plot: size, plot area, both axes' ticks, the count lines and the time line."""

    title: str
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    time_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    time: Series


def activity_plot(days: Sequence[DayActivity], *, width: int = 720, height: int = 280) -> ActivityPlot:
    """Answers and refusals by kind per day (left axis), and the median ms to the first sentence (right axis)."""
    left, top, right, bottom = 44, 28, width - 56, height - 40
    count_top = _nice_top(max([count(d) for _, _, count in COUNTS for d in days] + [1]))
    times = [d.median_first_sentence_ms for d in days if d.median_first_sentence_ms is not None]
    time_top = _nice_top(max(times + [1.0]))

    def x(index: int) -> float:
        return round(left + (right - left) * (index / (len(days) - 1) if len(days) > 1 else 0.5), 1)

    def y(value: float, top_value: float) -> float:
        return round(bottom - (bottom - top) * value / top_value, 1)

    series = []
    for label, css, count in COUNTS:
        dots = tuple(
            (x(i), y(count(d), count_top), f"{d.day:%Y-%m-%d}: {count(d)} {label}") for i, d in enumerate(days)
        )
        series.append(Series(label, css, _points(dots), dots))
    timed = tuple(
        (x(i), y(ms, time_top), f"{d.day:%Y-%m-%d}: {ms:,.0f} ms {TIME_LABEL}")
        for i, d in enumerate(days) if (ms := d.median_first_sentence_ms) is not None
    )
    every = max(1, math.ceil(len(days) / 8))
    return ActivityPlot(
        title=f"Questions per day, last {len(days)} days",
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        x_ticks=tuple(Tick(x(i), f"{d.day:%m-%d}") for i, d in enumerate(days) if (len(days) - 1 - i) % every == 0),
        y_ticks=tuple(Tick(y(v, count_top), f"{v:g}") for v in _steps(count_top)),
        time_ticks=tuple(Tick(y(v, time_top), f"{v:,.0f}") for v in _steps(time_top)),
        series=tuple(series),
        time=Series(f"{TIME_LABEL} (ms, right axis)", "time", _points(timed), timed),
    )


def _points(dots: Sequence[tuple[float, float, str]]) -> str:
    return " ".join(f"{dx},{dy}" for dx, dy, _ in dots)


def _nice_top(value: float) -> float:
    """The axis' top: the value rounded up to 1, 2 or 5 times a power of ten, so five steps read as round numbers."""
    step = _step(value)
    return step * math.ceil(value / step)


def _step(value: float) -> float:
    raw = value / 5
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _steps(top_value: float) -> list[float]:
    step = max(_step(top_value), 1.0) if top_value >= 5 else 1.0
    return [round(step * i, 6) for i in range(int(round(top_value / step)) + 1)]
