"""The frame every plot shares: shares of an axis become pixels inside the margins, a line joins its dots."""
from answers.present.plot import Area, Series, share


def test_shares_of_the_axes_are_pixels_inside_the_margins_with_y_counted_from_the_bottom():
    area = Area.inside(440, 250, right_margin=16)

    assert (area.left, area.top, area.right, area.bottom) == (44, 28, 424, 210)
    assert (area.x(0), area.x(0.25), area.x(1)) == (44, 139.0, 424)
    assert (area.y(0), area.y(0.5), area.y(1)) == (210, 119.0, 28)


def test_a_single_value_stands_in_the_middle_of_its_axis():
    assert share(3, 1, 5) == 0.5 and share(5, 1, 5) == 1.0
    assert share(7, 7, 7) == 0.5


def test_a_line_runs_through_its_dots_in_order():
    line = Series.through("errors", "errors", [(44.0, 210.0, "0: 0 errors"), (139.0, 28.0, "1: 2 errors")])

    assert line.points == "44.0,210.0 139.0,28.0"
    assert line.dots[1] == (139.0, 28.0, "1: 2 errors")
