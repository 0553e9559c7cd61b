"""Conversations kept for their owner (a user, or an anonymous visitor's session, expiring), and the turns a
follow-up is resolved against, read back from the log with the caller's visibility as it is now.

A conversation that is not the caller's is ConversationNotFound, exactly as a key that names none: nothing about
other people's conversations leaks.
"""
import datetime as dt
import functools
import uuid
from collections.abc import Callable, Collection, Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from answers.models import Conversation, QuestionLog
from answers.pipeline.followups import Turn
from answers.present.api import AnswerSummary
from answers.random_keys import random_uuid
from answers.retrieval.caller import CallerRetriever
from corpus_admin.models import Chunk

TITLE_CHARS = 80
NOT_FOUND = "No such conversation."


class ConversationNotFound(LookupError):
    """No conversation of the caller's has that key (missing, expired, or someone else's: the caller is not told)."""


class ConversationIdRejected(ValueError):
    """A conversation id that is not one (wrong type or shape), with a message naming what was wrong."""


def parse_conversation_key(raw: object) -> uuid.UUID | None:
    """The conversation a question names: None for none (absent, null or ""), else its key; strictly a UUID string
    in its canonical form (36 characters), or ConversationIdRejected."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or len(raw) != 36:
        raise ConversationIdRejected('The field "conversation" must be a conversation id (or empty for a new one).')
    try:
        key = uuid.UUID(raw)
    except ValueError:
        raise ConversationIdRejected('The field "conversation" must be a conversation id (or empty for a new one).') \
            from None
    if str(key) != raw.lower():
        raise ConversationIdRejected('The field "conversation" must be a conversation id (or empty for a new one).')
    return key


def conversation_title(question: str) -> str:
    """A conversation's title: its first question on one line, cut at a word near TITLE_CHARS."""
    line = " ".join(question.split())
    if len(line) <= TITLE_CHARS:
        return line
    cut = line[:TITLE_CHARS].rsplit(" ", 1)[0] or line[:TITLE_CHARS]
    return cut + "…"


def can_keep(caller: Any) -> bool:
    """Whether the caller's conversations can be kept (they have a user or a session)."""
    return caller.owner_lookup is not None


def anonymous_cutoff(now: dt.datetime | None = None) -> dt.datetime:
    """An anonymous conversation whose last question is older than this has expired."""
    return (now or timezone.now()) - dt.timedelta(days=settings.RAG_ANON_CONVERSATION_DAYS)


def caller_conversations(*, caller: Any, now: dt.datetime | None = None) -> QuerySet[Conversation]:
    """The caller's conversations that have not expired, newest first (none for a caller who cannot keep any)."""
    owner = caller.owner_lookup
    if owner is None:
        return Conversation.objects.none()
    found = Conversation.objects.filter(**owner)
    if caller.signed_in_user is None:
        found = found.filter(updated_at__gte=anonymous_cutoff(now))
    return found


def conversation_get(*, caller: Any, key: uuid.UUID, now: dt.datetime | None = None) -> Conversation:
    """The caller's conversation with that key; ConversationNotFound when there is none (missing, expired or not
    theirs)."""
    found = caller_conversations(caller=caller, now=now).filter(key=key).first()
    if found is None:
        raise ConversationNotFound(NOT_FOUND)
    return found


def conversation_new(*, caller: Any, question: str) -> Conversation | None:
    """A new conversation of the caller's, titled by its first question, not stored yet: it is inserted with its
    first turn, in the same transaction (answers/log_writer.py), so a question refused by the limits leaves none and
    a question's reads before its answer write nothing; its key is random (answers/random_keys.py). None for a
    caller who cannot keep one."""
    user = caller.signed_in_user
    if caller.owner_lookup is None:
        return None
    return Conversation(key=random_uuid(), user=user, session_key="" if user is not None else caller.session_key,
                        title=conversation_title(question))


def conversation_store(conversation: Conversation, *, touch: bool = True) -> None:
    """Store a new conversation (`conversation_new`), or mark a stored one asked in now when `touch`."""
    if conversation.pk is None:
        conversation.save()
    elif touch:
        conversation_touch(conversation)


def conversation_touch(conversation: Conversation) -> None:
    """Mark a question asked in the conversation now (it lists first, and an anonymous one lives on)."""
    Conversation.objects.filter(pk=conversation.pk).update(updated_at=timezone.now())


def conversation_turns(conversation: Conversation) -> QuerySet[QuestionLog]:
    """The conversation's log rows, oldest first."""
    return conversation.turns.order_by("created_at", "id")


def visible_chunks(chunk_ids: Sequence[str], *, audiences: Sequence[str]) -> dict[str, Chunk]:
    """The chunks among these the audiences may see now, by id (with their sources)."""
    if not chunk_ids:
        return {}
    rows = Chunk.objects.select_related("source").filter(chunk_id__in=set(chunk_ids), audience__in=list(audiences))
    return {chunk.chunk_id: chunk for chunk in rows}


def visible_chunk_ids(chunk_ids: Sequence[str], *, audiences: Sequence[str]) -> set[str]:
    """The ids among these of the chunks the audiences may see now: `visible_chunks`' filter, reading ids only (a
    socket's kept turns carry their passages' text; building Chunk and Source rows cost more than the rest of the
    question's reads). Plain SQL, as `corpus_stamp`: the ORM's query building cost more than the query."""
    ids, tiers = sorted(set(chunk_ids)), list(audiences)
    if not ids or not tiers:
        return set()
    quote = connection.ops.quote_name
    meta = Chunk._meta
    columns = {field.name: quote(field.column) for field in meta.concrete_fields}
    chunk_id, audience = columns["chunk_id"], columns["audience"]
    sql = (f"SELECT {chunk_id} FROM {quote(meta.db_table)} WHERE {chunk_id} IN ({', '.join(['%s'] * len(ids))})"
           f" AND {audience} IN ({', '.join(['%s'] * len(tiers))})")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*ids, *tiers])
        return {row[0] for row in cursor.fetchall()}


def visible_to(retriever: object) -> Callable[..., Collection[str]]:
    """`visible_chunk_ids` as a question with this retriever answers it: from its snapshot when that is the corpus as
    served when the question read its version (`CallerRetriever.visible_ids`: no query unless an id is not served
    now), else from the database."""
    if isinstance(retriever, CallerRetriever):
        return functools.partial(retriever.visible_ids, read=visible_chunk_ids)
    return visible_chunk_ids


def cited_ids(row: QuestionLog) -> list[str]:
    """The chunks an answer's row stands on: its sentences' citations and a conflict's sides (an answer may be
    shown again only to a caller who may see every one of them)."""
    ids = [c["chunk_id"] for sentence in row.sentences for c in sentence.get("citations", ())]
    ids += [side["chunk_id"] for side in row.conflict]
    return list(dict.fromkeys(ids))


def shown_ids(row: QuestionLog) -> list[str]:
    """Every chunk an answer's row names: the cited ones and its issued sources (of which a caller is shown again
    only those they may see now)."""
    return list(dict.fromkeys([*cited_ids(row), *(block["chunk_id"] for block in row.blocks)]))


def resolution_ids(row: QuestionLog) -> list[str] | None:
    """The chunks a follow-up's standalone form may have been made from: those every earlier turn of its conversation
    cites (all of them, not only history_of's last few: each turn's history is read with its own standalone form,
    which can carry an older turn's words on); None when those turns are not stored (a socket's kept turns, or a
    program's own history), so they cannot be re-checked."""
    if row.conversation_id is None:
        return None
    earlier = QuestionLog.objects.filter(conversation_id=row.conversation_id, id__lt=row.pk).only(
        "pk", "sentences", "conflict")  # what cited_ids reads
    return list(dict.fromkeys(cid for turn in earlier for cid in cited_ids(turn)))


def chunk_text(chunk: Chunk) -> str:
    """A cited passage as a follow-up is resolved against it: source title, heading path and text (as indexed)."""
    return "\n".join((chunk.source.title, *chunk.heading_path, chunk.text))


def question_seen_now(asked: str, standalone: str | None, made_from: Iterable[str], seen: Container[str]) -> str:
    """An earlier turn's question as a follow-up's history reads it: its standalone form while the caller may see
    every passage it may have been made from (those the turns before it cite), else the question as asked."""
    return standalone if standalone and all(cid in seen for cid in made_from) else asked


def history_of(
    conversation: Conversation, *, audiences: Sequence[str], limit: int,
    visible: Callable[..., dict[str, Chunk]] = visible_chunks,
) -> tuple[Turn, ...]:
    """The conversation's last `limit` turns as a follow-up's history: each question (its standalone form), the
    sentences shown and the passages they cited, re-read with the audiences now. A sentence citing a passage the
    caller may no longer see is left out with that passage, and a standalone form made from such a passage (any
    earlier turn citing one) gives way to the question as asked (`question_seen_now`)."""
    rows = list(conversation_turns(conversation).reverse()[:limit])[::-1]
    older: list[QuestionLog] = []
    if len(rows) == limit:  # turns before the window: only what they cite
        older = list(conversation_turns(conversation).exclude(pk__in=[row.pk for row in rows])
                     .only("pk", "created_at", "sentences", "conflict"))
    chunks = visible([cid for row in (*older, *rows) for cid in cited_ids(row)], audiences=audiences)
    made_from = [cid for row in older for cid in cited_ids(row)]
    turns = []
    for row in rows:
        sentences: list[str] = []
        cited: dict[str, str] = {}
        for sentence in row.sentences:
            ids = [c["chunk_id"] for c in sentence.get("citations", ())]
            if not ids or any(cid not in chunks for cid in ids):
                continue
            sentences.append(sentence["text"])
            for cid in ids:
                cited.setdefault(cid, chunk_text(chunks[cid]))
        resolved = (row.diagnostics or {}).get("resolved_question")
        turns.append(Turn(question_seen_now(row.question, resolved, made_from, chunks), tuple(sentences),
                          tuple(cited.values())))
        made_from += cited_ids(row)
    return tuple(turns)


@dataclass(frozen=True)
class KeptTurn:
    """A socket's answered turn as it keeps it for follow-ups asked outside a stored conversation: the question (its
    standalone form) and as asked, each shown sentence with the chunks it cites, the cited passages' text by chunk
    id, the chunks it stands on (its sentences' and a conflict's, as `cited_ids`) and those every earlier turn of the
    socket stands on (its standalone form may have been made from them), so that the next question re-reads it with
    the caller's visibility then (`history_seen_now`)."""

    question: str
    asked: str
    sentences: tuple[tuple[str, tuple[str, ...]], ...]
    passages: tuple[tuple[str, str], ...]
    cites: tuple[str, ...]
    made_from: tuple[str, ...]


def kept_turn(turn: Turn, summary: AnswerSummary, earlier: KeptTurn | None = None) -> KeptTurn:
    """A turn (services.turn_from of the summary) with the chunks each of its shown sentences cites, after the
    socket's `earlier` kept turn (None for its first, or the first since the caller changed)."""
    sentences = summary.sentences
    ids = list(dict.fromkeys(c.chunk_id for s in sentences for c in s.citations))
    cited = tuple(zip(ids, turn.cited_texts, strict=True))  # turn_from lists the passages in this order
    sides = [side.ref.chunk_id for side in (summary.refusal.sides if summary.refusal else ())]
    made_from = () if earlier is None else tuple(dict.fromkeys((*earlier.made_from, *earlier.cites)))
    return KeptTurn(turn.question, summary.question,
                    tuple((s.text, tuple(c.chunk_id for c in s.citations)) for s in sentences), cited,
                    tuple(dict.fromkeys((*ids, *sides))), made_from)


def history_seen_now(
    kept: Sequence[KeptTurn], *, audiences: Sequence[str], visible: Callable[..., Collection[str]] = visible_chunk_ids,
) -> tuple[Turn, ...]:
    """A socket's kept turns as a follow-up's history, re-read with the audiences now (as `history_of` reads a
    stored conversation): a sentence citing a passage the caller may no longer see is left out with that passage,
    and a standalone form made from such a passage gives way to the question as asked (`question_seen_now`)."""
    chunks = visible([cid for turn in kept for cid in (*turn.made_from, *turn.cites)], audiences=audiences)
    turns = []
    for turn in kept:
        shown = [(text, ids) for text, ids in turn.sentences if ids and all(cid in chunks for cid in ids)]
        seen = {cid for _, ids in shown for cid in ids}
        turns.append(Turn(question_seen_now(turn.asked, turn.question, turn.made_from, chunks),
                          tuple(text for text, _ in shown), tuple(text for cid, text in turn.passages if cid in seen)))
    return tuple(turns)


def purge_expired(now: dt.datetime | None = None) -> int:
    """Delete anonymous conversations past RAG_ANON_CONVERSATION_DAYS (their log rows stay, unlinked); how many."""
    deleted, _ = Conversation.objects.filter(user__isnull=True, updated_at__lt=anonymous_cutoff(now)).delete()
    return deleted
