"""The gaps: questions that ended in a refusal or were rated not helpful, grouped by similar wording.

Wording is compared as sets of significant terms from the project's tokenizer (stop words removed, stemmed), so
"How long do refunds take?" and "refund: how long does it take" share one set. Sets are then clustered by Jaccard
similarity against each group's first (largest) set, never chained through a member: a group stays about one thing.
"""
import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from answers.models import QuestionLog, Rating
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms

SIMILARITY = 0.7  # two wordings share a group when at least this share of all their terms are common (Jaccard)


@dataclass(frozen=True)
class GapQuestion:
    """One logged question that the documents missed: refused (kind given) or rated not helpful."""

    log_id: int
    question: str
    asked_at: dt.datetime
    refusal_kind: str = ""
    not_helpful: bool = False


@dataclass(frozen=True)
class GapGroup:
    """Questions of similar wording: how often they were asked, per ISO week, last when, and how they ended."""

    example: str
    terms: frozenset[str]
    wordings: int
    total: int
    per_week: dict[str, int]
    last_asked: dt.datetime
    refusal_kinds: dict[str, int]
    not_helpful: int
    log_ids: tuple[int, ...]


def iso_week(moment: dt.datetime | dt.date) -> str:
    """The ISO week of a date or (already local) moment, as "2026-W49"."""
    year, week, _ = moment.isocalendar()
    return f"{year}-W{week:02d}"


def weeks_between(first: dt.date, last: dt.date) -> list[str]:
    """Every ISO week from the one holding `first` to the one holding `last`, in order."""
    weeks, day = [], first - dt.timedelta(days=first.weekday())
    while day <= last:
        weeks.append(iso_week(day))
        day += dt.timedelta(days=7)
    return weeks


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Shared terms over all terms; two empty sets (questions of stop words only) are the same wording."""
    return len(a & b) / len(a | b) if a or b else 1.0


def group_gaps(
    questions: Iterable[GapQuestion], *, terms: Callable[[str], frozenset[str]], similarity: float = SIMILARITY
) -> list[GapGroup]:
    """The questions grouped by wording, the most asked group first (then the most recently asked)."""
    by_terms: dict[frozenset[str], list[GapQuestion]] = {}
    for question in questions:
        by_terms.setdefault(terms(question.question), []).append(question)
    # Larger sets of identical wording seed groups first, so a group's seed is its commonest wording.
    ordered = sorted(by_terms.items(), key=lambda item: (-len(item[1]), -_latest(item[1]).timestamp(), sorted(item[0])))
    clusters: list[tuple[frozenset[str], list[GapQuestion]]] = []
    for term_set, members in ordered:
        for seed, cluster in clusters:
            if jaccard(seed, term_set) >= similarity:
                cluster.extend(members)
                break
        else:
            clusters.append((term_set, list(members)))
    groups = [_group(seed, members) for seed, members in clusters]
    return sorted(groups, key=lambda g: (-g.total, -g.last_asked.timestamp(), g.example))


def _latest(questions: Sequence[GapQuestion]) -> dt.datetime:
    return max(q.asked_at for q in questions)


def _group(seed: frozenset[str], members: list[GapQuestion]) -> GapGroup:
    members = sorted(members, key=lambda q: (q.asked_at, q.log_id), reverse=True)
    return GapGroup(
        example=members[0].question,
        terms=seed,
        wordings=len({q.question.strip().casefold() for q in members}),
        total=len(members),
        per_week=dict(sorted(Counter(iso_week(q.asked_at) for q in members).items())),
        last_asked=members[0].asked_at,
        refusal_kinds=dict(sorted(Counter(q.refusal_kind for q in members if q.refusal_kind).items())),
        not_helpful=sum(q.not_helpful for q in members),
        log_ids=tuple(q.log_id for q in members),
    )


def term_set(config: TokenizerConfig) -> Callable[[str], frozenset[str]]:
    """A question's significant terms as a set, with the site's tokenizer."""
    return lambda text: frozenset(significant_terms(text, config))


def gap_questions(*, since: dt.datetime) -> list[GapQuestion]:
    """Logged questions since then that were refused or rated not helpful, asked_at in the site's time zone."""
    rows = (
        QuestionLog.objects.filter(created_at__gte=since)
        .annotate(not_helpful=Exists(Rating.objects.filter(log=OuterRef("pk"), helpful=False)))
        .filter(Q(status="refused") | Q(not_helpful=True))
        .values_list("pk", "question", "created_at", "refusal_kind", "not_helpful")
    )
    return [
        GapQuestion(pk, question, timezone.localtime(created), kind, not_helpful)
        for pk, question, created, kind, not_helpful in rows
    ]
