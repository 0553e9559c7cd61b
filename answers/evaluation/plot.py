"""Geometry of the sweep plot: numbers only; the report template draws them as inline SVG."""
import math
from collections.abc import Sequence
from dataclasses import dataclass

from answers.evaluation.sweep import SETTINGS, SweepPoint

SERIES = (  # (label, css class, how to count at a point)
    ("all errors", "errors", lambda p: len(p.errors)),
    ("answered where a refusal was right", "answered", lambda p: p.answered_wrongly),
    ("refused where an answer was right", "refused", lambda p: p.refused_wrongly),
)


@dataclass(frozen=True)
class Tick:
    """An axis label and where it stands."""

    at: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line of the plot: an SVG points list and its dots."""

    label: str
    css: str
    points: str
    dots: tuple[tuple[float, float, str], ...]  # x, y, tooltip


@dataclass(frozen=True)
class Plot:
    """A whole plot: size, plot area, axes, the configured value's marker, and the lines."""

    title: str
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    marker: float | None
    series: tuple[Series, ...]


def sweep_plot(points: Sequence[SweepPoint], *, width: int = 440, height: int = 250) -> Plot:
    """Errors against the threshold's value, one line per kind of error."""
    left, top, right, bottom = 44, 28, width - 16, height - 40
    values = [p.value for p in points]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    y_max = max([count(p) for _, _, count in SERIES for p in points] + [1])
    step = max(1, math.ceil(y_max / 5))
    y_top = step * math.ceil(y_max / step)

    def x(value: float) -> float:
        return round(left + (right - left) * ((value - low) / (high - low) if high > low else 0.5), 1)

    def y(count: int) -> float:
        return round(bottom - (bottom - top) * count / y_top, 1)

    series = []
    for label, css, count in SERIES:
        dots = tuple((x(p.value), y(count(p)), f"{_number(p.value)}: {count(p)} {label}") for p in points)
        series.append(Series(label, css, " ".join(f"{dx},{dy}" for dx, dy, _ in dots), dots))
    setting = points[0].setting if points else ""
    configured = [p.value for p in points if p.configured]
    return Plot(
        title=f"Errors by {SETTINGS.get(setting, setting)}",
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        x_ticks=tuple(Tick(x(v), _number(v)) for v in values),
        y_ticks=tuple(Tick(y(c), str(c)) for c in range(0, y_top + 1, step)),
        marker=x(configured[0]) if configured else None,
        series=tuple(series),
    )


def _number(value: float) -> str:
    return f"{value:g}"
