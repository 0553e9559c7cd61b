"""A logged answer shown again (a reopened conversation, a permalink): its row read back into the events it showed,
with the cited passages' sources as they are now, rendered with the live answer's fragment templates."""
from collections.abc import Mapping, Sequence

from answers.models import QuestionLog
from answers.pipeline.events import (
    AnswerDone,
    AnswerFailed,
    AnswerRefused,
    BlocksIssued,
    ChunkRef,
    ConflictSide,
    Event,
    QuestionResolved,
    SentenceVerified,
)
from answers.pipeline.types import SupportSpan
from answers.present.api import list_item_from_json
from answers.present.fragments import render_event, render_turn
from answers.present.lists import ENDS_HELD_ITEMS, ListPlacer
from corpus_admin.models import Chunk


def _span(stored: Mapping) -> SupportSpan | None:
    span = stored.get("span")
    if not span:
        return None
    return SupportSpan(span["start"], span["end"], tuple(span.get("sentences", ())), stored.get("quote") or "")


def _ref(n: int, stored: Mapping, chunks: Mapping[str, Chunk], *, with_span: bool = True) -> ChunkRef:
    chunk = chunks[stored["chunk_id"]]
    return ChunkRef(n, chunk.chunk_id, chunk.source.title, chunk.source.updated_on,
                    _span(stored) if with_span else None)


def stored_events(row: QuestionLog, chunks: Mapping[str, Chunk], *, resolution: bool = True) -> list[Event]:
    """The events a logged answer showed, its sources read from `chunks` (the ones the caller may see now, among
    them every one it cites: see answers.conversations.cited_ids), the issued sources not among them left out;
    staff-only ones (dropped sentences, diagnostics) are not stored back. `resolution`: whether a follow-up's
    standalone form is shown (it is made from earlier turns' passages, which the caller may not see now)."""
    events: list[Event] = []
    resolved = (row.diagnostics or {}).get("resolved_question")
    if resolved and resolution:
        events.append(QuestionResolved(row.question, resolved))
    blocks = [b for b in row.blocks if b["chunk_id"] in chunks]  # the sources the caller may see now
    if blocks:
        events.append(BlocksIssued(tuple(_ref(b["n"], b, chunks, with_span=False) for b in blocks),
                                   row.context_tokens))
    for sentence in row.sentences:
        events.append(SentenceVerified(sentence["text"],
                                       tuple(_ref(c["n"], c, chunks) for c in sentence.get("citations", ())),
                                       list_item_from_json(sentence.get("list"))))
    if row.refusal_kind:
        sides = tuple(ConflictSide(side["statement"], _ref(0, side, chunks)) for side in row.conflict)
        events.append(AnswerRefused(row.refusal_kind, row.refusal_message, sides))
    if row.error:
        events.append(AnswerFailed("The answer could not be written."))
    status = row.status if row.status in {"answered", "refused", "incomplete", "failed"} else "incomplete"
    events.append(AnswerDone(status, generator=row.generator))
    return events


def render_stored(turn_id: str, row: QuestionLog, chunks: Mapping[str, Chunk], *, resolution: bool = True) -> str:
    """A logged answer as the fragments a live one arrives as: its turn, then each event, in order (`resolution`:
    see stored_events)."""
    parts = [render_turn(turn_id, row.question)]
    position = 0
    lists = ListPlacer()
    for event in stored_events(row, chunks, resolution=resolution):
        if isinstance(event, SentenceVerified):
            position += 1
            ready = lists.add(event, position)
        else:
            ready = lists.flush() if isinstance(event, ENDS_HELD_ITEMS) else []
        parts += [render_event(turn_id, sentence, position=at, placement=placement)
                  for sentence, at, placement in ready]
        if not isinstance(event, SentenceVerified):
            parts.append(render_event(turn_id, event, position=position))
    parts += [render_event(turn_id, sentence, position=at, placement=placement)
              for sentence, at, placement in lists.flush()]
    return "".join(parts)


def all_visible(ids: Sequence[str], chunks: Mapping[str, Chunk]) -> bool:
    """Whether every chunk an answer shows is among the visible ones."""
    return all(chunk_id in chunks for chunk_id in ids)
