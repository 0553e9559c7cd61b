"""The gaps: refused or not-helpful questions grouped by their significant terms, counted per ISO week."""
import datetime as dt

import pytest
from django.contrib.auth.models import User

from answers.insight.gaps import GapQuestion, gap_questions, group_gaps, iso_week, jaccard, term_set, weeks_between
from answers.models import QuestionLog, Rating
from answers.pipeline.text.tokens import DEFAULT

UTC = dt.UTC
MONDAY = dt.datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # ISO week 2026-W48
TERMS = term_set(DEFAULT)


def gap(n: int, question: str, *, days: float = 0, kind: str = "no_material", not_helpful: bool = False) -> GapQuestion:
    return GapQuestion(n, question, MONDAY + dt.timedelta(days=days), kind, not_helpful)


def test_the_same_significant_terms_in_other_words_are_one_group():
    groups = group_gaps(
        [gap(1, "How long do refunds take?"), gap(2, "refund: how long does it take", days=1),
         gap(3, "What is the office wifi password?", days=2)],
        terms=TERMS,
    )

    assert [(g.total, g.wordings) for g in groups] == [(2, 2), (1, 1)]
    assert groups[0].example == "refund: how long does it take"  # the most recently asked wording
    assert groups[0].log_ids == (2, 1)


@pytest.mark.parametrize(
    ("first", "second", "together"),
    [
        ("How do I export my invoices?", "How can I export invoices?", True),  # same terms
        ("How long does a refund take?", "How long does a refund take for digital goods?", False),  # 3 of 5 terms
        ("guest wifi password", "office wifi password", False),  # 2 of 4
        ("wifi password", "office wifi password", False),  # 2 of 3
        ("Is there a student discount for the Team plan?", "student discount Team plan yearly", True),  # 4 of 5
        ("Where are the invoice exports for the Team plan?", "invoice exports Team plan where", True),
    ],
)
def test_wordings_share_a_group_when_most_of_their_terms_are_shared(first, second, together):
    groups = group_gaps([gap(1, first), gap(2, second, days=1)], terms=TERMS)

    assert (len(groups) == 1) == together


def test_groups_do_not_chain_through_a_member():
    a, b, c = (frozenset(map(str, range(n))) for n in (10, 8, 6))
    sets = {"a": a, "b": b, "c": c}

    groups = group_gaps([gap(1, "a"), gap(2, "a"), gap(3, "b"), gap(4, "c")], terms=sets.__getitem__)

    assert sorted(g.total for g in groups) == [1, 3]  # c is like b but not like the seed a: a group of its own
    assert (jaccard(a, b), jaccard(b, c), jaccard(a, c)) == (0.8, 0.75, 0.6)


def test_a_group_counts_per_iso_week_and_names_its_refusal_kinds_and_not_helpful_ratings():
    questions = [
        gap(1, "Is there a student discount?", days=0),
        gap(2, "Is there a student discount?", days=6.5, kind="unsupported"),  # Sunday: still 2026-W48
        gap(3, "student discount?", days=7, kind=""),  # Monday of 2026-W49, answered but rated not helpful
    ]
    questions[2] = GapQuestion(3, "student discount?", MONDAY + dt.timedelta(days=7), "", True)

    (group,) = group_gaps(questions, terms=TERMS)

    assert group.per_week == {"2026-W48": 2, "2026-W49": 1}
    assert group.refusal_kinds == {"no_material": 1, "unsupported": 1}
    assert group.not_helpful == 1 and group.total == 3
    assert group.last_asked == MONDAY + dt.timedelta(days=7)


def test_the_most_asked_group_comes_first_then_the_most_recent():
    groups = group_gaps(
        [gap(1, "parking at the office"), gap(2, "guest wifi", days=3), gap(3, "guest wifi", days=1),
         gap(4, "holiday calendar", days=5)],
        terms=TERMS,
    )

    assert [g.example for g in groups] == ["guest wifi", "holiday calendar", "parking at the office"]


def test_questions_of_stop_words_only_are_one_group():
    groups = group_gaps([gap(1, "What?"), gap(2, "how is it"), gap(3, "Why not?")], terms=TERMS)

    assert [g.total for g in groups] == [3]


def test_iso_weeks_cross_the_year_as_iso_counts_them():
    assert iso_week(dt.date(2026, 12, 31)) == "2026-W53"
    assert iso_week(dt.date(2027, 1, 4)) == "2027-W01"
    assert weeks_between(dt.date(2026, 12, 30), dt.date(2027, 1, 5)) == ["2026-W53", "2027-W01"]


def logged(question: str, *, at: dt.datetime, status: str = "refused", kind: str = "no_material") -> QuestionLog:
    """A log row asked at `at` (created_at is set on insert, so it is moved after)."""
    log = QuestionLog.objects.create(channel="api", question=question, status=status, refusal_kind=kind,
                                     generator="extractive")
    QuestionLog.objects.filter(pk=log.pk).update(created_at=at)
    return log


@pytest.mark.django_db
def test_the_gap_questions_are_the_refused_and_the_rated_not_helpful_since_then():
    since = MONDAY
    refused = logged("What is the office wifi password?", at=since + dt.timedelta(hours=1))
    logged("What is the office wifi password?", at=since - dt.timedelta(hours=1))  # before the window
    liked = logged("How long are files kept?", at=since + dt.timedelta(hours=2), status="answered", kind="")
    disliked = logged("How do I export invoices?", at=since + dt.timedelta(hours=3), status="answered", kind="")
    logged("How much is the Team plan?", at=since + dt.timedelta(hours=4), status="answered", kind="")  # not rated
    user = User.objects.create_user("rater")
    Rating.objects.create(log=liked, user=user, helpful=True)
    Rating.objects.create(log=disliked, user=user, helpful=False, comment="wrong")

    found = sorted(gap_questions(since=since), key=lambda q: q.log_id)

    assert [(q.log_id, q.refusal_kind, q.not_helpful) for q in found] == [
        (refused.pk, "no_material", False), (disliked.pk, "", True)
    ]
    assert found[0].asked_at == since + dt.timedelta(hours=1)
