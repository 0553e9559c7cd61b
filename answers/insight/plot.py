"""Geometry of the activity plot: numbers only (the admin template draws them as inline SVG, every label escaped).

Counts per day (answered, each refusal kind) against the left axis, the median time to the first sentence against
the right; the frame, ticks and lines every plot shares are answers/present/plot.py's.
"""
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from answers.insight.activity import DayActivity
from answers.present.plot import Area, Frame, Series, Tick, share

COUNTS = (  # (label, css class, how to count a day)
    ("answered", "answered", lambda d: d.answered),
    ("refused: no material", "no_material", lambda d: d.refused.get("no_material", 0)),
    ("refused: conflict", "conflict", lambda d: d.refused.get("conflict", 0)),
    ("refused: unsupported", "unsupported", lambda d: d.refused.get("unsupported", 0)),
)
TIME_LABEL = "median time to first sentence"


@dataclass(frozen=True)
class ActivityPlot(Frame):
    """The whole plot: the frame, the time axis' ticks, the count lines and the time line."""

    time_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    time: Series


def activity_plot(days: Sequence[DayActivity], *, width: int = 720, height: int = 280) -> ActivityPlot:
    """Answers and refusals by kind per day (left axis), and the median ms to the first sentence (right axis)."""
    area = Area.inside(width, height, right_margin=56)
    count_top = _nice_top(max([count(d) for _, _, count in COUNTS for d in days] + [1]))
    times = [d.median_first_sentence_ms for d in days if d.median_first_sentence_ms is not None]
    time_top = _nice_top(max(times + [1.0]))

    def x(index: int) -> float:
        return area.x(share(index, 0, len(days) - 1))

    def y(value: float, top_value: float) -> float:
        return area.y(value / top_value)

    series = tuple(
        Series.through(label, css, [(x(i), y(count(d), count_top), f"{d.day:%Y-%m-%d}: {count(d)} {label}")
                                    for i, d in enumerate(days)])
        for label, css, count in COUNTS
    )
    timed = tuple(
        (x(i), y(ms, time_top), f"{d.day:%Y-%m-%d}: {ms:,.0f} ms {TIME_LABEL}")
        for i, d in enumerate(days) if (ms := d.median_first_sentence_ms) is not None
    )
    every = max(1, math.ceil(len(days) / 8))
    return ActivityPlot(
        **asdict(area),
        title=f"Questions per day, last {len(days)} days",
        x_ticks=tuple(Tick(x(i), f"{d.day:%m-%d}") for i, d in enumerate(days) if (len(days) - 1 - i) % every == 0),
        y_ticks=tuple(Tick(y(v, count_top), f"{v:g}") for v in _steps(count_top)),
        time_ticks=tuple(Tick(y(v, time_top), f"{v:,.0f}") for v in _steps(time_top)),
        series=series,
        time=Series.through(f"{TIME_LABEL} (ms, right axis)", "time", timed),
    )


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
