"""Staff insight pages in the admin: the gaps (questions the documents missed) and the activity plot.

Served at /admin/answers/gaps/ and /admin/answers/activity/ inside the admin's own checks: an active staff user
(else the admin's sign-in page) who may read the conversation log (else 403).
"""
import datetime as dt
from collections.abc import Callable

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from answers.insight.activity import REFUSAL_KINDS, daily_activity
from answers.insight.gaps import SIMILARITY, gap_questions, group_gaps, term_set, weeks_between
from answers.insight.plot import activity_plot
from answers.retrieval.holder import tokenizer_from_settings

DAY_CHOICES = (7, 28, 56, 91, 182, 365)
GAPS_DAYS, ACTIVITY_DAYS = 56, 28
MOST_IDS_LINKED = 200  # a group's rows are linked as one filtered log list; a URL of more would be too long


def _days(request: HttpRequest, default: int) -> int:
    raw = request.GET.get("days", "")
    return int(raw) if raw.isdigit() and int(raw) in DAY_CHOICES else default


def _log_reader(view: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """The admin's staff check (others go to its sign-in page), then the conversation log's view permission."""

    def checked(request: HttpRequest) -> HttpResponse:
        if not request.user.has_perm("answers.view_questionlog"):
            raise PermissionDenied("Reading the gaps needs permission to view the conversation log.")
        return view(request)

    return admin.site.admin_view(require_GET(checked))


def _context(request: HttpRequest, title: str, days: int) -> dict:
    return {**admin.site.each_context(request), "title": title, "days": days, "day_choices": DAY_CHOICES}


def gaps(request: HttpRequest, *, now: Callable[[], dt.datetime] = timezone.now) -> HttpResponse:
    """The gaps table: refused or not-helpful questions grouped by wording, counted per ISO week."""
    days = _days(request, GAPS_DAYS)
    moment = now()
    since = moment - dt.timedelta(days=days)
    groups = group_gaps(gap_questions(since=since), terms=term_set(tokenizer_from_settings()))
    weeks = weeks_between(timezone.localdate(since), timezone.localdate(moment))
    changelist = reverse("admin:answers_questionlog_changelist")
    rows = [
        {
            "group": group,
            "weeks": [group.per_week.get(week, 0) for week in weeks],
            "kinds": ", ".join(f"{kind} {count}" for kind, count in group.refusal_kinds.items()) or "—",
            "rows_url": f"{changelist}?id__in={','.join(map(str, group.log_ids[:MOST_IDS_LINKED]))}",
        }
        for group in groups
    ]
    context = {**_context(request, "Gaps: questions the documents missed", days), "rows": rows, "weeks": weeks,
               "similarity": SIMILARITY, "questions": sum(g.total for g in groups)}
    return TemplateResponse(request, "admin/answers/gaps.html", context)


def activity(request: HttpRequest, *, now: Callable[[], dt.datetime] = timezone.now) -> HttpResponse:
    """Answers, refusals by kind and the median time to the first sentence per day, as a plot and a table."""
    days = _days(request, ACTIVITY_DAYS)
    per_day = daily_activity(now=now(), days=days)
    context = {**_context(request, "Activity: answers and refusals per day", days), "per_day": per_day,
               "plot": activity_plot(per_day), "kinds": REFUSAL_KINDS}
    return TemplateResponse(request, "admin/answers/activity.html", context)


urlpatterns = [
    path("gaps/", _log_reader(gaps), name="admin-gaps"),
    path("activity/", _log_reader(activity), name="admin-activity"),
]
