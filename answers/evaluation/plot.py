"""Geometry of the sweep plot: numbers only; the report template draws them as inline SVG."""
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from answers.evaluation.sweep import SETTINGS, SweepPoint
from answers.present.plot import Area, Frame, Series, Tick, share

SERIES = (  # (label, css class, how to count at a point)
    ("all errors", "errors", lambda p: len(p.errors)),
    ("answered where a refusal was right", "answered", lambda p: p.answered_wrongly),
    ("refused where an answer was right", "refused", lambda p: p.refused_wrongly),
)


@dataclass(frozen=True)
class Plot(Frame):
    """A whole sweep plot: the frame, the configured value's marker, and a line per kind of error."""

    marker: float | None
    series: tuple[Series, ...]


def sweep_plot(points: Sequence[SweepPoint], *, width: int = 440, height: int = 250) -> Plot:
    """Errors against the threshold's value, one line per kind of error."""
    area = Area.inside(width, height, right_margin=16)
    values = [p.value for p in points]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    y_max = max([count(p) for _, _, count in SERIES for p in points] + [1])
    step = max(1, math.ceil(y_max / 5))
    y_top = step * math.ceil(y_max / step)

    def x(value: float) -> float:
        return area.x(share(value, low, high))

    def y(count: int) -> float:
        return area.y(count / y_top)

    series = tuple(
        Series.through(label, css, [(x(p.value), y(count(p)), f"{_number(p.value)}: {count(p)} {label}")
                                    for p in points])
        for label, css, count in SERIES
    )
    setting = points[0].setting if points else ""
    configured = [p.value for p in points if p.configured]
    return Plot(
        **asdict(area),
        title=f"Errors by {SETTINGS.get(setting, setting)}",
        x_ticks=tuple(Tick(x(v), _number(v)) for v in values),
        y_ticks=tuple(Tick(y(c), str(c)) for c in range(0, y_top + 1, step)),
        marker=x(configured[0]) if configured else None,
        series=series,
    )


def _number(value: float) -> str:
    return f"{value:g}"
