"""Ratings: helpful or not, with an optional comment, on an answer, by the caller who asked; one per caller, changeable.

An answer is named by its log row's `answer_key`. Only its asker may rate it: the same user, or for an anonymous
question the same session (a visitor with neither cannot be told apart from anyone else, so cannot rate). Anything
else is AnswerNotFound, exactly as a key that names no answer: nothing about other people's answers leaks.
"""
import json
import math
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from answers.limits.counters import shared_counters
from answers.limits.rates import WINDOW_S, RateDecision, wall_clock
from answers.models import QuestionLog, Rating
from answers.services import Caller

FIELDS = ("helpful", "comment")
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


class RatingRejected(ValueError):
    """A rating that will not be stored, with a message naming what was wrong."""


class AnswerNotFound(LookupError):
    """No answer of the caller's has that key (it may be someone else's: the caller is not told)."""


@dataclass(frozen=True)
class RatingInput:
    """A rating as the caller sent it, checked."""

    helpful: bool
    comment: str = ""


def parse_rating(body: bytes) -> RatingInput:
    """The rating of a JSON body {"helpful": true|false, "comment": "..."}; RatingRejected names what was wrong."""
    try:
        data = json.loads(body or b"")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RatingRejected(f"The body is not valid JSON ({error}).") from None
    except RecursionError:
        raise RatingRejected('The body is nested too deeply; send a JSON object like {"helpful": true}.') from None
    if not isinstance(data, dict):
        raise RatingRejected('The body must be a JSON object like {"helpful": true, "comment": "..."}.')
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise RatingRejected(f"Unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                             'send only "helpful" and "comment".')
    if "helpful" not in data:
        raise RatingRejected('The field "helpful" is missing.')
    if not isinstance(data["helpful"], bool):
        raise RatingRejected('The field "helpful" must be true or false.')
    return RatingInput(data["helpful"], clean_comment(data.get("comment")))


def clean_comment(raw: object) -> str:
    """The comment stripped ("" for none or null), or RatingRejected naming the problem."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise RatingRejected('The field "comment" must be a string.')
    comment = raw.strip()
    limit = settings.RAG_RATING_COMMENT_CHARS
    if len(comment) > limit:
        raise RatingRejected(f"The comment is {len(comment)} characters long; the limit is {limit}.")
    if found := _NOT_TEXT.search(comment):
        raise RatingRejected(f"The comment holds U+{ord(found.group()):04X} at character {found.start() + 1}, "
                             "which is not text.")
    return comment


def can_rate(caller: Caller) -> bool:
    """Whether the caller can be told apart from everyone else, so their answers can be rated (by them)."""
    return caller.signed_in_user is not None or bool(caller.session_key)


def owned_answer(*, caller: Caller, answer_key: uuid.UUID) -> QuestionLog:
    """The caller's own answer with that key; AnswerNotFound when there is none (missing, or someone else's)."""
    owner = caller.owner_lookup
    log = None if owner is None else QuestionLog.objects.filter(answer_key=answer_key, **owner).first()
    if log is None:
        raise AnswerNotFound("No such answer.")
    return log


def rate_answer(*, caller: Caller, answer_key: uuid.UUID, rating: RatingInput) -> Rating:
    """Store the caller's rating of their answer, replacing their earlier one; AnswerNotFound if it is not theirs."""
    with transaction.atomic():
        log = owned_answer(caller=caller, answer_key=answer_key)
        user = caller.signed_in_user
        saved, _ = Rating.objects.update_or_create(
            log=log,
            user=user,
            session_key="" if user is not None else caller.session_key,
            defaults={"helpful": rating.helpful, "comment": rating.comment},
        )
    return saved


def rating_json(rating: Rating) -> dict[str, object]:
    """A stored rating as the API returns it."""
    return {
        "answer_key": str(rating.log.answer_key),
        "helpful": rating.helpful,
        "comment": rating.comment,
        "created_at": rating.created_at.isoformat(),
        "updated_at": rating.updated_at.isoformat(),
    }


async def rating_limit_hit(key: str, *, clock: Callable[[], float] | None = None) -> RateDecision:
    """Count one rating for the caller (RAG_RATING_RATE_LIMIT a minute, in the question limits' shared counters)."""
    limit = settings.RAG_RATING_RATE_LIMIT
    if limit <= 0:
        return RateDecision(True)
    now = (clock or wall_clock)()
    window = int(now // WINDOW_S)
    (count,) = await shared_counters().count_rate([(f"rag:rate-rating:{key}:{window}", limit)], ttl_s=WINDOW_S * 2)
    if count <= limit:
        return RateDecision(True)
    retry = max(1, math.ceil((window + 1) * WINDOW_S - now))
    return RateDecision(False, retry, f"You have rated {limit} answers in the last minute; "
                                      f"please try again in {retry} seconds.")
