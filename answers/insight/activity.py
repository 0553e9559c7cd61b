"""Daily activity from the conversation log: answers, refusals by kind and the median time to the first sentence."""
import datetime as dt
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils import timezone

from answers.models import QuestionLog

REFUSAL_KINDS = ("no_material", "conflict", "unsupported")


@dataclass(frozen=True)
class DayActivity:
    """One day: questions answered, refused by kind, and the median milliseconds to the first shown sentence."""

    day: dt.date
    answered: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    median_first_sentence_ms: float | None = None

    @property
    def questions(self) -> int:
        return self.answered + sum(self.refused.values())


@dataclass(frozen=True)
class LoggedOutcome:
    """What activity reads of one log row."""

    day: dt.date
    status: str
    refusal_kind: str
    first_sentence_ms: float | None


def fold_days(rows: Iterable[LoggedOutcome], *, last_day: dt.date, days: int) -> list[DayActivity]:
    """One DayActivity per day of the `days` ending with `last_day`, empty days included, oldest first."""
    first_day = last_day - dt.timedelta(days=days - 1)
    answered: dict[dt.date, int] = {}
    refused: dict[dt.date, dict[str, int]] = {}
    times: dict[dt.date, list[float]] = {}
    for row in rows:
        if not first_day <= row.day <= last_day:
            continue
        if row.status == "answered":
            answered[row.day] = answered.get(row.day, 0) + 1
        elif row.status == "refused" and row.refusal_kind:
            kinds = refused.setdefault(row.day, {})
            kinds[row.refusal_kind] = kinds.get(row.refusal_kind, 0) + 1
        if row.first_sentence_ms is not None:
            times.setdefault(row.day, []).append(row.first_sentence_ms)
    result = []
    for offset in range(days):
        day = first_day + dt.timedelta(days=offset)
        median = statistics.median(times[day]) if day in times else None
        result.append(DayActivity(day, answered.get(day, 0), {k: refused.get(day, {}).get(k, 0) for k in REFUSAL_KINDS},
                                  median))
    return result


def logged_outcomes(*, since: dt.datetime) -> list[LoggedOutcome]:
    """The log rows since then as activity reads them, dated in the site's time zone."""
    rows = QuestionLog.objects.filter(created_at__gte=since).values_list(
        "created_at", "status", "refusal_kind", "timings"
    )
    return [
        LoggedOutcome(timezone.localdate(created), status, kind, _ms((timings or {}).get("first_sentence_ms")))
        for created, status, kind, timings in rows
    ]


def daily_activity(*, now: dt.datetime, days: int) -> list[DayActivity]:
    """The last `days` days up to and including today (the site's time zone)."""
    today = timezone.localdate(now)
    start = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=days - 1), dt.time.min))
    return fold_days(logged_outcomes(since=start), last_day=today, days=days)


def _ms(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
