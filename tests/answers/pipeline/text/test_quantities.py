import pytest

from answers.pipeline.text.quantities import (
    Quantity,
    duration_units,
    find_quantities,
    numbers_in,
    same_duration,
    spoken_amounts,
)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("5-7 days", {"5", "7"}),
        ("12,500 users", {"12500"}),
        ("1,000,000.5 tokens", {"1000000.5"}),
        ("2.5 GB", {"2.5"}),
        ("$12 a month", {"12"}),
        ("99.9% uptime", {"99.9"}),
        ("upgrade to v2.5", {"2.5"}),
        ("HTTP 429.", {"429"}),
        ("Python 3.11.2", {"3.11.2"}),
        ("1,2", {"1", "2"}),
        ("200MB", {"200"}),
        ("no numbers here", set()),
    ],
)
def test_numbers_in_are_normalised_like_the_tokenizer(text: str, numbers: set[str]) -> None:
    assert numbers_in(text) == numbers


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("200 MB", [("200", "mb")]),
        ("200MB", [("200", "mb")]),
        ("200 mb", [("200", "mb")]),
        ("2 megabytes", [("2", "mb")]),
        ("1 day", [("1", "day")]),
        ("3 Days", [("3", "day")]),
        ("a 30-day trial", [("30", "day")]),
        ("5-7 business days", [("5-7", "business day")]),
        ("8 business hours", [("8", "business hour")]),
        ("8 working hours", [("8", "business hour")]),
        ("200 seats in 1 calendar year", [("200", "seat"), ("1", "year")]),
        ("3 calendar months", [("3", "month")]),
        ("5 – 7 weeks", [("5-7", "week")]),
        ("250 ms", [("250", "ms")]),
        ("2 hrs", [("2", "hour")]),
        ("99.9%", [("99.9", "%")]),
        ("99.9 percent", [("99.9", "%")]),
        ("99.9 per cent", [("99.9", "%")]),
        ("$12", [("12", "$")]),
        ("$5-$7", [("5-7", "$")]),
        ("€42.50", [("42.50", "€")]),
        ("12 USD", [("12", "$")]),
        ("$12 per month", [("12", "$/month")]),
        ("$120/year", [("120", "$/year")]),
        ("100 requests per minute", [("100", "request/minute")]),
        ("12,500 users", [("12500", "user")]),
        ("10 members and 3 seats", [("10", "member"), ("3", "seat")]),
        ("version 3 of the app", []),
        ("the x86 GB", []),
        ("1,2 GB", []),
        ("2024-05-01", []),
    ],
)
def test_quantities_are_a_number_with_a_normalised_unit(text: str, stated: list[tuple[str, str]]) -> None:
    assert [(quantity.value, quantity.unit) for quantity in find_quantities(text)] == stated


def test_quantity_context_runs_back_to_the_previous_quantity() -> None:
    text = "Files are kept 30 days and the trial lasts 90 days"
    assert find_quantities(text) == [
        Quantity(value="30", unit="day", start=15, context=("Files", "are", "kept")),
        Quantity(value="90", unit="day", start=43, context=("and", "the", "trial", "lasts")),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tickets are answered within a day.", {("1", "day")}),
        ("The page is updated every half hour.", {("0.5", "hour")}),
        ("It takes half an hour.", {("0.5", "hour")}),
        ("Two people change the same file.", {("1", "file")}),
        ("Two people change the same files.", set()),
        ("Each plan has a single seat.", {("1", "seat")}),
        ("The largest single file the app accepts.", {("1", "file")}),
        ("The 2 days are over.", set()),
        ("You have a full day to use the link.", {("1", "day")}),  # an adjective of completeness between
        ("Backups run for one whole week.", {("1", "week")}),
        ("Orders placed before 14:00 ship the same day.", set()),  # a date, not a length of one day
    ],
)
def test_a_unit_said_without_digits_is_an_amount(text, expected):
    assert spoken_amounts(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (("24", "hour"), ("1", "day"), True),
        (("30", "minute"), ("0.5", "hour"), True),
        (("12", "month"), ("1", "year"), True),
        (("14", "day"), ("2", "week"), True),
        (("90", "hour"), ("90", "day"), False),
        (("1", "day"), ("1", "week"), False),
        (("30", "day"), ("1", "month"), False),
        (("1", "business day"), ("24", "hour"), False),
        (("4-6", "day"), ("1", "week"), False),
    ],
)
def test_one_length_of_time_in_other_units_is_the_same_duration(a, b, same):
    assert same_duration(a, b) is same


def test_a_period_said_by_how_often_is_a_unit_of_time_named():
    assert duration_units("A quarterly review, monthly invoices and a call once per quarter.") == {"quarter", "month"}
    assert duration_units("Backups run daily and are checked weekly.") == {"day", "week"}


def test_milliseconds_written_out_are_a_unit_of_time_and_ms_alone_is_not():
    assert duration_units("Retry-After gives the wait in milliseconds.") == {"ms"}
    assert duration_units("Documents made in MS Word upload as usual.") == frozenset()
