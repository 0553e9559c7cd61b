"""Daily activity: answers, refusals by kind and the median time to the first sentence, every day of the window."""
import datetime as dt

import pytest

from answers.insight.activity import LoggedOutcome, daily_activity, fold_days
from answers.models import QuestionLog

DAY = dt.date(2026, 11, 30)


def outcome(days_ago: int, status: str = "answered", kind: str = "", ms: float | None = None) -> LoggedOutcome:
    return LoggedOutcome(DAY - dt.timedelta(days=days_ago), status, kind, ms)


def test_each_day_of_the_window_is_there_oldest_first_empty_days_included():
    days = fold_days([outcome(0), outcome(2)], last_day=DAY, days=4)

    assert [d.day for d in days] == [DAY - dt.timedelta(days=n) for n in (3, 2, 1, 0)]
    assert [d.answered for d in days] == [0, 1, 0, 1]
    assert days[0].refused == {"no_material": 0, "conflict": 0, "unsupported": 0}
    assert days[0].median_first_sentence_ms is None


def test_refusals_count_by_kind_and_other_endings_count_as_neither():
    rows = [outcome(0, "refused", "no_material"), outcome(0, "refused", "no_material"),
            outcome(0, "refused", "conflict"), outcome(0, "failed"), outcome(0, "cancelled"), outcome(0)]

    (day,) = fold_days(rows, last_day=DAY, days=1)

    assert day.answered == 1 and day.refused == {"no_material": 2, "conflict": 1, "unsupported": 0}
    assert day.questions == 4


def test_the_median_time_to_the_first_sentence_is_over_the_days_answers_that_showed_one():
    rows = [outcome(0, ms=120), outcome(0, ms=80), outcome(0, ms=1000), outcome(0, "refused", "unsupported"),
            outcome(1, ms=50), outcome(1, ms=70)]

    yesterday, today = fold_days(rows, last_day=DAY, days=2)

    assert (yesterday.median_first_sentence_ms, today.median_first_sentence_ms) == (60, 120)


def test_rows_outside_the_window_are_left_out():
    assert [d.answered for d in fold_days([outcome(5), outcome(-1), outcome(1)], last_day=DAY, days=2)] == [1, 0]


@pytest.mark.django_db
def test_daily_activity_reads_the_log_by_the_sites_day(settings):
    settings.TIME_ZONE = "Europe/Berlin"  # 23:30 UTC on the 29th is already the 30th there
    now = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    for at, status, kind, timings in [
        (dt.datetime(2026, 11, 29, 23, 30, tzinfo=dt.UTC), "answered", "", {"first_sentence_ms": 40.0}),
        (dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), "refused", "unsupported", {"total_ms": 9.0}),
        (dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC), "answered", "", {}),  # before the window
    ]:
        log = QuestionLog.objects.create(channel="ws", question="q", status=status, refusal_kind=kind,
                                         generator="extractive", timings=timings)
        QuestionLog.objects.filter(pk=log.pk).update(created_at=at)

    days = daily_activity(now=now, days=3)

    assert [(d.day.day, d.answered, d.refused["unsupported"], d.median_first_sentence_ms) for d in days] == [
        (28, 0, 0, None), (29, 0, 1, None), (30, 1, 0, 40.0)
    ]
