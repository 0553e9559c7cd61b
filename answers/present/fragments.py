"""Events as HTML fragments for the chat page: each carries `data-event` and an out-of-band swap target."""
import functools

from django.template import Context
from django.template.loader import get_template

from answers.generators.fallback import FALLBACK_NAME
from answers.pipeline.events import (
    STAFF_ONLY,
    AnswerDone,
    AnswerFailed,
    AnswerRefused,
    BlocksIssued,
    ChunkRef,
    Event,
    QuestionResolved,
    SentenceVerified,
)
from answers.present.lists import Placement
from answers.present.shell import done_html, notice_html, sentence_html, sources_html, turn_html
from corpus_admin.highlights import cited_url
from corpus_admin.models import chunk_url

REFUSAL_TITLES = {
    "no_material": "Nothing relevant found",
    "conflict": "The documents disagree",
    "unsupported": "No direct answer in the documents",
}
STATUS_TEXT = {
    "answered": "End of answer.",
    "refused": "End of answer: no answer was given.",
    "incomplete": "End of answer: it was cut off, so it may be incomplete.",
    "failed": "The answer could not be written.",
}


GENERATOR_TEXT = {
    "claude": "Written by the model; each sentence was checked against the passage it cites.",
    "extractive": "Quoted from the documents.",
    FALLBACK_NAME: "The model was unavailable, so this answer quotes the documents directly.",
}


def render_turn(turn_id: str, question: str) -> str:
    """The empty turn a question starts, appended to the conversation."""
    return turn_html(turn_id, question)


def render_event(turn_id: str, event: Event, *, position: int = 1, placement: Placement | None = None) -> str:
    """The fragment for one event of a turn; what is for staff only (dropped sentences, diagnostics) renders as
    nothing. `position` is a sentence's place in its answer (1, 2, ...), which keeps its quotes' ids apart;
    `placement`, a list item sentence's place in its list (present/lists.py; None: a paragraph of its own)."""
    if isinstance(event, STAFF_ONLY):
        return ""
    context: dict = {"turn": turn_id, "event": event, "position": position, "placement": placement}
    if isinstance(event, QuestionResolved):
        template = "resolved"
    elif isinstance(event, BlocksIssued):
        documents = source_documents(event.blocks)
        return sources_html(turn_id, ((d["title"], d["updated_on"], d["blocks"]) for d in documents))
    elif isinstance(event, SentenceVerified):
        citations = [(citation, chunk_url(citation.chunk_id), span_url(citation)) for citation in event.citations]
        return sentence_html(turn_id, event.text, citations, position=position, placement=placement)
    elif isinstance(event, AnswerRefused):
        template = "refusal"
        context["title"] = REFUSAL_TITLES[event.reason]
        context["sides"] = [(side, span_url(side.ref)) for side in event.sides]
    elif isinstance(event, AnswerDone):
        return done_html(turn_id, event.status, event.generator, done_text(event))
    elif isinstance(event, AnswerFailed):
        template = "error"
    else:
        raise TypeError(f"no fragment for {type(event).__name__}")
    return _render(f"answers/fragments/{template}.html", context)


def _render(name: str, context: dict) -> str:
    """The fragment template rendered without localization: its numbers are ids and [n], never amounts, and
    localizing each one (the language, then the number format) was half of a sentence's rendering time."""
    # The Django engine's own compiled Template (cached by the loader), which takes a Context.
    compiled = get_template(name).template  # type: ignore[attr-defined]
    return compiled.render(Context(context, use_l10n=False))


def done_text(event: AnswerDone) -> str:
    """How the answer ended, in words, and who wrote it (unless nothing was answered)."""
    by = GENERATOR_TEXT.get(event.generator, "")
    text = STATUS_TEXT.get(event.status, event.status)
    return f"{text} {by}" if by and event.status != "refused" else text


def source_documents(blocks: tuple[ChunkRef, ...]) -> list[dict]:
    """The sources list: each document once (in the order its first block was issued) with its passages under it."""
    documents: dict[tuple, dict] = {}
    for block in blocks:
        document = documents.setdefault((block.source_title, block.updated_on), {
            "title": block.source_title, "updated_on": block.updated_on, "blocks": [],
        })
        document["blocks"].append((block, chunk_url(block.chunk_id)))
    return list(documents.values())


def span_url(ref: ChunkRef) -> str:
    """Where a citation's `[n]` or a conflict side leads: its chunk's page with its span highlighted (§2.7)."""
    return cited_url(ref.chunk_id, ref.span.sentences if ref.span else ())


def render_notice(message: str) -> str:
    """A message not tied to a turn (busy, too long, malformed, rate limited), replacing the last one."""
    if not message:
        return _cleared_notice()  # every question starts with it
    return notice_html(message)


@functools.cache
def _cleared_notice() -> str:
    return notice_html("")
