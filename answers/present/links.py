"""What the chat shows around an answer: its permalink and copy button, the conversation it was asked in, and a
reopened answer that may no longer be shown."""
import uuid

from django.template.loader import render_to_string
from django.urls import reverse

from answers.models import Conversation
from answers.present.fragments import render_turn
from answers.present.shell import format_fragment

# Written with format_fragment (every argument escaped), not templates: each answer sends them (present/shell.py).
_LINKS = (
    '<div hx-swap-oob="beforeend:#turn-{0}"><p class="answer-links" id="links-{0}" hx-disable><a class="permalink" '
    'href="{1}">Link to this answer</a> <button type="button" class="copy-answer" data-turn="{0}">Copy answer and '
    'sources</button> <span class="copy-state" role="status"></span></p></div>\n'
)
_CONVERSATION_KEY = (
    '<input type="hidden" name="conversation" id="conversation-key" value="{}" hx-swap-oob="outerHTML">\n{}\n'
)
_NEW_CONVERSATION = (
    '<div hx-swap-oob="afterbegin:#conversation-list"><li class="conversation-item current" data-key="{0}">'
    '<a href="{1}?c={0}">{2}</a></li></div>'
)


def render_answer_links(turn_id: str, answer_key: uuid.UUID) -> str:
    """The permalink of a turn's answer and its copy button (static/js/chat.js), appended to the turn."""
    return format_fragment(_LINKS, turn_id, reverse("answer-permalink", args=[answer_key]))


def render_conversation(conversation: Conversation, *, new: bool) -> str:
    """The conversation the next question is asked in (the form's hidden field) and, when it has just been
    started, its entry at the top of the side panel."""
    entry = format_fragment(_NEW_CONVERSATION, conversation.key, reverse("home"), conversation.title) if new else ""
    return format_fragment(_CONVERSATION_KEY, conversation.key, entry)


def render_hidden(turn_id: str, question: str, message: str) -> str:
    """A logged answer the caller may not see now: its question and a note saying so, nothing of the answer."""
    return render_turn(turn_id, question) + render_to_string(
        "answers/fragments/hidden.html", {"turn": turn_id, "message": message}
    )
