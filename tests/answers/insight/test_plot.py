"""The activity plot's geometry: one line per count, the time line on its own axis, round ticks, escaped later."""
import datetime as dt

from answers.insight.activity import DayActivity
from answers.insight.plot import activity_plot

DAY = dt.date(2026, 11, 1)


def day(n: int, answered: int = 0, *, no_material: int = 0, ms: float | None = None) -> DayActivity:
    return DayActivity(DAY + dt.timedelta(days=n), answered, {"no_material": no_material, "conflict": 0,
                                                              "unsupported": 0}, ms)


def test_each_count_is_a_line_over_every_day_and_its_highest_point_is_at_most_the_top_tick():
    plot = activity_plot([day(0, 3), day(1, 7, no_material=2), day(2, 0)])

    answered = next(s for s in plot.series if s.css == "answered")
    assert [label for _, _, label in answered.dots] == [
        "2026-11-01: 3 answered", "2026-11-02: 7 answered", "2026-11-03: 0 answered"
    ]
    xs, ys = [x for x, _, _ in answered.dots], [y for _, y, _ in answered.dots]
    assert xs == sorted(xs) and xs[0] == plot.left and xs[-1] == plot.right
    assert ys[2] == plot.bottom and plot.top <= ys[1] < ys[0] < ys[2]  # 7 is higher up than 3
    assert [t.label for t in plot.y_ticks] == ["0", "2", "4", "6", "8"]
    assert answered.points == " ".join(f"{x},{y}" for x, y, _ in answered.dots)


def test_the_time_line_skips_days_without_a_first_sentence_and_has_its_own_axis():
    plot = activity_plot([day(0, 1, ms=120.0), day(1), day(2, 1, ms=1234.0)])

    assert [label for _, _, label in plot.time.dots] == [
        "2026-11-01: 120 ms median time to first sentence", "2026-11-03: 1,234 ms median time to first sentence"
    ]
    assert [t.label for t in plot.time_ticks] == ["0", "500", "1,000", "1,500"]
    assert plot.time.dots[1][1] < plot.time.dots[0][1]


def test_an_empty_window_still_draws_axes():
    plot = activity_plot([day(0)])

    assert [t.label for t in plot.y_ticks] == ["0", "1"] and plot.time.dots == ()
    assert plot.x_ticks[0].label == "11-01"


def test_a_long_window_labels_about_eight_days_ending_with_the_last():
    plot = activity_plot([day(n) for n in range(28)])

    assert len(plot.x_ticks) <= 8 and plot.x_ticks[-1].label == "11-28"
