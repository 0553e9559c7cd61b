"""What the chat shows around an answer: its permalink and copy button, the conversation it was asked in, and a
reopened answer that may no longer be shown."""
import uuid

from django.template.loader import render_to_string
from django.urls import reverse

from answers.models import Conversation
from answers.present.fragments import render_turn


def render_answer_links(turn_id: str, answer_key: uuid.UUID) -> str:
    """The permalink of a turn's answer and its copy button (static/js/chat.js), appended to the turn."""
    return render_to_string("answers/fragments/links.html",
                            {"turn": turn_id, "url": reverse("answer-permalink", args=[answer_key])})


def render_conversation(conversation: Conversation, *, new: bool) -> str:
    """The conversation the next question is asked in (the form's hidden field) and, when it has just been
    started, its entry at the top of the side panel."""
    return render_to_string("answers/fragments/conversation.html", {"conversation": conversation, "new": new})


def render_hidden(turn_id: str, question: str, message: str) -> str:
    """A logged answer the caller may not see now: its question and a note saying so, nothing of the answer."""
    return render_turn(turn_id, question) + render_to_string(
        "answers/fragments/hidden.html", {"turn": turn_id, "message": message}
    )
