"""The rating form under an answer in the chat: Helpful / Not helpful and an optional comment (static/js/rating.js)."""
import uuid

from django.conf import settings
from django.urls import reverse

from answers.present.shell import format_fragment

# Written with format_fragment (every argument escaped), not a template: each answer sends it (present/shell.py).
_FORM = """<div hx-swap-oob="beforeend:#turn-{0}">
<form class="rating" id="rating-{0}" data-url="{1}" hx-disable>
  <fieldset class="rating-choice">
    <legend>Was this answer helpful?</legend>
    <button type="submit" name="helpful" value="true" aria-pressed="false">Helpful</button>
    <button type="submit" name="helpful" value="false" aria-pressed="false">Not helpful</button>
    <details class="rating-comment">
      <summary>Add a comment</summary>
      <label for="rating-comment-{0}">Comment (optional, up to {2} characters)</label>
      <textarea id="rating-comment-{0}" name="comment" rows="2" maxlength="{2}"></textarea>
    </details>
  </fieldset>
  <p class="rating-state" id="rating-state-{0}" role="status"></p>
</form>
</div>
"""


def render_rating(turn_id: str, answer_key: uuid.UUID) -> str:
    """The rating form of a turn's answer, appended to the turn; it posts to the answer's rating endpoint."""
    url = reverse("api-answer-rating", args=[answer_key])
    return format_fragment(_FORM, turn_id, url, settings.RAG_RATING_COMMENT_CHARS)
