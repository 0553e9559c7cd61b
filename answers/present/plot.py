"""What every inline-SVG plot shares (the evaluation's sweep plot, the admin's activity plot): the drawing area
inside the axes' margins, ticks, lines of dots, and the scale from a share of an axis to a pixel. Numbers only;
the templates draw them, every label escaped."""
from collections.abc import Sequence
from dataclasses import dataclass

Dot = tuple[float, float, str]  # x, y, tooltip


@dataclass(frozen=True)
class Tick:
    """An axis label and where it stands."""

    at: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line of a plot: an SVG points list and its dots."""

    label: str
    css: str
    points: str
    dots: tuple[Dot, ...]

    @classmethod
    def through(cls, label: str, css: str, dots: Sequence[Dot]) -> "Series":
        """The line through these dots, in their order."""
        return cls(label, css, " ".join(f"{x},{y}" for x, y, _ in dots), tuple(dots))


@dataclass(frozen=True)
class Area:
    """The SVG's size and the plot area inside it, left of the right margin and above the x axis' labels."""

    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int

    @classmethod
    def inside(cls, width: int, height: int, *, right_margin: int) -> "Area":
        """The area of a plot this size, with room on the left for the y axis' labels and below for the x axis'."""
        return cls(width, height, left=44, top=28, right=width - right_margin, bottom=height - 40)

    def x(self, share: float) -> float:
        """The pixel this share of the way along the x axis (0 at the left)."""
        return round(self.left + (self.right - self.left) * share, 1)

    def y(self, share: float) -> float:
        """The pixel this share of the way up the y axis (0 at the bottom)."""
        return round(self.bottom - (self.bottom - self.top) * share, 1)


@dataclass(frozen=True)
class Frame(Area):
    """A plot's area with its title and the ticks on both axes; each plot adds its lines."""

    title: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]


def share(value: float, low: float, high: float) -> float:
    """How far value is from low towards high (the middle when all values are one)."""
    return (value - low) / (high - low) if high > low else 0.5
