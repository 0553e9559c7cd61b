"""The rating form under an answer in the chat: Helpful / Not helpful and an optional comment (static/js/rating.js)."""
import uuid

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse


def render_rating(turn_id: str, answer_key: uuid.UUID) -> str:
    """The rating form of a turn's answer, appended to the turn; it posts to the answer's rating endpoint."""
    return render_to_string(
        "answers/fragments/rating.html",
        {
            "turn": turn_id,
            "url": reverse("api-answer-rating", args=[answer_key]),
            "max_chars": settings.RAG_RATING_COMMENT_CHARS,
        },
    )
