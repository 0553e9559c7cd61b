"""The answer service: `ask`, the one entry point for a question (admission, the answer, one fold, the log)."""
import contextlib
import logging
import re
import traceback
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from answers.conversations import conversation_new, conversation_store, history_of
from answers.dbcalls import db_call
from answers.generators.claude import ClaudeGenerator, ClaudeSettings
from answers.generators.fallback import FallbackGenerator
from answers.generators.rewrite import rewrite_question
from answers.limits.rates import caller_key
from answers.limits.slots import admitted
from answers.log_writer import Item, log_writer
from answers.models import Conversation, QuestionLog
from answers.outages import database_available
from answers.pipeline.answer import Retriever, answer_events
from answers.pipeline.config import PipelineConfig
from answers.pipeline.events import AnswerDone, Event, QuestionResolved
from answers.pipeline.followups import Resolution, Turn, resolve_question
from answers.pipeline.generate.base import Generator
from answers.pipeline.generate.extractive import ExtractiveGenerator
from answers.pipeline.records import indexed_text
from answers.present.api import AnswerSummary
from answers.present.log import log_row, row_status
from answers.random_keys import random_uuid
from answers.retrieval.backends import retriever_for
from answers.retrieval.caller import bound_to_question, caller_audiences
from answers.retrieval.holder import index_holder, tokenizer_from_settings

logger = logging.getLogger(__name__)

_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


class QuestionRejected(ValueError):
    """A question that will not be answered, with a message naming what was wrong."""


def clean_question(raw: object) -> str:
    """Return the question stripped, or raise QuestionRejected naming the problem."""
    if not isinstance(raw, str):
        raise QuestionRejected('The field "question" must be a string.')
    question = raw.strip()
    if not question:
        raise QuestionRejected('The field "question" is empty.')
    limit = settings.RAG_MAX_QUESTION_CHARS
    if len(question) > limit:
        raise QuestionRejected(f"The question is {len(question)} characters long; the limit is {limit}.")
    _reject_non_text(question)
    return question


def _reject_non_text(question: str) -> None:
    """Refuse what cannot be stored or shown: lone surrogates (JSON can carry "\\ud800") and NUL, by name."""
    found = _NOT_TEXT.search(question)
    if found is None:
        return
    char, position = found.group(), found.start() + 1
    if char == "\x00":
        raise QuestionRejected(f"The question holds a NUL character (U+0000) at character {position}; remove it.")
    raise QuestionRejected(
        f"The question holds U+{ord(char):04X} at character {position}, a lone surrogate that is not text; "
        "send the question as valid Unicode."
    )


MAX_HISTORY = 5  # earlier questions a caller may send with a question


def clean_history(raw: object) -> tuple[str, ...]:
    """The earlier questions of a conversation as a caller sent them (a list of at most MAX_HISTORY questions,
    oldest first, each within the question limit), or QuestionRejected naming the problem."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise QuestionRejected('The field "history" must be a list of earlier questions.')
    if len(raw) > MAX_HISTORY:
        raise QuestionRejected(f'The field "history" holds {len(raw)} questions; the limit is {MAX_HISTORY}.')
    cleaned = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, str) or not item.strip():
            raise QuestionRejected(f'Question {number} of "history" must be a non-empty string.')
        try:
            cleaned.append(clean_question(item))
        except QuestionRejected as error:
            raise QuestionRejected(f'Question {number} of "history": {error}') from None
    return tuple(cleaned)


def history_from_questions(questions: Sequence[str], *, config: PipelineConfig) -> tuple[Turn, ...]:
    """Turns from earlier questions alone (no answers), each resolved against the ones before it, offline."""
    turns: list[Turn] = []
    for question in questions:
        turns.append(Turn(resolve_question(question, turns, config=config).question))
    return tuple(turns)


def turn_from(summary: AnswerSummary) -> Turn:
    """An answered question as the next question's history: its standalone form, the sentences shown, and the
    passages they cited (source title, heading path and text, as indexed; the citation's quote if the index has
    moved on)."""
    snapshot = index_holder().snapshot
    records = snapshot.records if snapshot is not None else {}
    cited: dict[str, str] = {}
    for sentence in summary.sentences:
        for citation in sentence.citations:
            record = records.get(citation.chunk_id)
            quote = citation.span.quote if citation.span else ""
            cited.setdefault(citation.chunk_id, indexed_text(record) if record else f"{citation.source_title}. {quote}")
    question = summary.resolved.resolved if summary.resolved else summary.question
    return Turn(question, tuple(s.text for s in summary.sentences), tuple(cited.values()))


Resolver = Callable[[str, Sequence[Turn], PipelineConfig], Awaitable[Resolution]]


async def resolve_followup(question: str, history: Sequence[Turn], config: PipelineConfig) -> Resolution:
    """The standalone form of a follow-up: the model's rewrite when an API key is set, else the offline resolver's."""
    if not history:
        return Resolution(question, False)
    if not settings.ANTHROPIC_API_KEY:
        return resolve_question(question, history, config=config)
    return await rewrite_question(question, history, settings=claude_settings(), config=config,
                                  max_chars=settings.RAG_MAX_QUESTION_CHARS)


async def resolve_in_context(
    question: str, history: Sequence[Turn], *, config: PipelineConfig, resolve: Resolver
) -> Resolution:
    """The follow-up's resolution as an answer makes it: the question as asked when resolving breaks or gives more
    than a question may be (a rewrite only helps retrieval: it must never cost the answer)."""
    try:
        resolution = await resolve(question, history, config)
    except Exception:
        logger.exception("Resolving a follow-up failed; answering the question as asked")
        return Resolution(question, False)
    if resolution.resolved and len(resolution.question) > settings.RAG_MAX_QUESTION_CHARS:
        return Resolution(question, False, "the rewrite is longer than a question may be")
    return resolution


def pipeline_config() -> PipelineConfig:
    """The pipeline's thresholds as the settings give them now."""
    return PipelineConfig(
        top_k=settings.RAG_TOP_K,
        min_score=settings.RAG_MIN_SCORE,
        min_coverage=settings.RAG_MIN_COVERAGE,
        context_tokens=settings.RAG_CONTEXT_TOKENS,
        max_blocks=settings.RAG_MAX_BLOCKS,
        per_source=settings.RAG_PER_SOURCE,
        min_overlap=settings.RAG_MIN_OVERLAP,
        min_sentence_coverage=settings.RAG_MIN_SENTENCE_COVERAGE,
        min_answer_score=settings.RAG_MIN_ANSWER_SCORE,
        semantic=settings.RAG_EMBEDDINGS,
        tokenizer=tokenizer_from_settings(),
    )


def claude_settings() -> ClaudeSettings:
    """How the model generator talks to the API, as the settings give it now."""
    return ClaudeSettings(
        api_key=settings.ANTHROPIC_API_KEY,
        base_url=settings.ANTHROPIC_BASE_URL,
        answer_model=settings.RAG_ANSWER_MODEL,
        compress_model=settings.RAG_COMPRESS_MODEL,
        compress=settings.RAG_COMPRESS,
        max_tokens=settings.RAG_ANSWER_MAX_TOKENS,
        timeout_s=settings.RAG_ANSWER_TIMEOUT_S,
        retries=settings.RAG_LLM_RETRIES,
        retry_after_cap_s=settings.RAG_LLM_RETRY_AFTER_CAP_S,
        max_concurrent=settings.RAG_MAX_CONCURRENT_LLM,
        queue_wait_s=settings.RAG_LLM_QUEUE_WAIT_S,
        rewrite_timeout_s=settings.RAG_REWRITE_TIMEOUT_S,
    )


def choose_generator(config: PipelineConfig) -> Generator:
    """Claude when an API key is set (falling back to extractive if so configured), else extractive."""
    if not settings.ANTHROPIC_API_KEY:
        return ExtractiveGenerator(config)
    claude = ClaudeGenerator(claude_settings())
    if settings.RAG_FALLBACK == "extractive":
        return FallbackGenerator(claude, ExtractiveGenerator(config))
    return claude


@dataclass(frozen=True)
class PreparedCaller:
    """What a question reads from the database before it starts: the caller's audiences and retriever."""

    audiences: tuple[str, ...]
    retriever: Retriever


@database_available()  # locked, unreachable or out of connections: "busy, try again", not a traceback
def _prepare(user, audiences: tuple[str, ...] | None) -> PreparedCaller:
    audiences = audiences or caller_audiences(user)
    return PreparedCaller(audiences, retriever_for(audiences))


async def prepare_caller(user, audiences: tuple[str, ...] | None = None) -> PreparedCaller:
    """Read the caller for one question; ServiceUnavailable when the database cannot be read now."""
    return await db_call(_prepare)(user, audiences)


@dataclass(frozen=True)
class Caller:
    """Who asks: the user (None or anonymous), their session key and network address.

    `limited` applies the rate and concurrency limits; trusted internal callers (`manage.py ask`, `evaluate`) are
    not limited.
    """

    user: Any = None
    session_key: str = ""
    address: str | None = None
    limited: bool = True

    @property
    def signed_in_user(self) -> Any:
        """The user when signed in, else None: what the limits count by and the conversation log stores."""
        return self.user if self.user is not None and self.user.is_authenticated else None

    @property
    def owner_lookup(self) -> dict[str, object] | None:
        """The lookup, on a log row, a rating or a conversation, that means "this caller's"; None for a caller with
        neither a user nor a session, whom nothing can be kept for."""
        user = self.signed_in_user
        if user is not None:
            return {"user": user}
        if self.session_key:
            return {"user__isnull": True, "session_key": self.session_key}
        return None

    @property
    def key(self) -> str:
        """What the limits count this caller by."""
        user = self.signed_in_user
        return caller_key(user_id=user.pk if user is not None else None, session_key=self.session_key or None,
                          client=self.address)


@dataclass(frozen=True)
class AnswerStream:
    """One admitted question's answer: its §6 events, to iterate once, and `summary`, their one fold.

    `answer_key` names the answer's log row (written when the stream ends) before it exists: what a rating names.
    `conversation` is the stored conversation the question was asked in (None when none is kept).
    """

    events: AsyncIterator[Event]
    summary: AnswerSummary
    answer_key: uuid.UUID
    conversation: Conversation | None = None

    def __aiter__(self) -> AsyncIterator[Event]:
        return self.events


GeneratorFactory = Callable[[PipelineConfig], Generator]


async def ask(
    *,
    caller: Caller,
    question: object,
    channel: str,
    make_generator: GeneratorFactory = choose_generator,
    audiences: tuple[str, ...] | None = None,
    config: PipelineConfig | None = None,
    record: bool = True,
    history: Sequence[Turn] = (),
    resolve: Resolver = resolve_followup,
    conversation: Conversation | None = None,
    keep: bool = False,
    admission: "Admission | None" = None,
) -> AnswerStream:
    """The one entry point for a question: admission, then the answer's events, folded once and logged at the end.

    Admission cleans the question, counts it against the caller's rate limits, takes one of their concurrent-answer
    slots (held until the answer ends, however it ends, and given back before its log row is written) and reads the
    caller's audiences. It raises QuestionRejected, QuestionRefused or ServiceUnavailable before any event, so a
    surface can still answer 400, 429 or 503. `make_generator` makes the answer's generator: each surface passes the
    one it was given (the site wires `choose_generator`, a test a scripted one). `audiences`, `config` and
    `record=False` are for trusted internal callers such as the evaluation. `history`, the conversation's earlier
    turns (oldest first), makes a follow-up be answered as its standalone form (`resolve`), announced first by a
    QuestionResolved event.
    `conversation`, a stored conversation of the caller's, gives the history instead (its last turns, re-read with
    the caller's audiences now) and the answer is logged in it; with none, `keep` starts one (when the caller has a
    user or a session), titled by this question and stored with the answer's log row. `admission`, what
    `admission_reads` read for this question inside a surface's own database call (the websocket reads its caller in
    the same one), stands for that read: the question's database work before its answer is then that one call (reads
    only).
    """
    text = clean_question(question)
    slot = contextlib.AsyncExitStack()
    if admission is None:  # read here, after the limits have counted the question
        if caller.limited:  # the rates and the caller's slot in one shared step (limits/slots.py)
            await slot.enter_async_context(admitted(caller.key))
        try:
            admission = await db_call(admission_reads)(caller, text, audiences, conversation, keep)
        except BaseException:
            await slot.aclose()
            raise
    elif caller.limited:  # read by the surface already: the limits count the question after it (a conversation
        await slot.enter_async_context(admitted(caller.key))  # it started is stored with its first turn: none here)
    history = history if admission.history is None else admission.history
    config = config or pipeline_config()
    generator = make_generator(config)
    summary = AnswerSummary(text)
    answer_key = random_uuid()  # no system call per question on the event loop (answers/random_keys.py)
    # a conversation this question started was created just now: no update to mark it asked in
    events = _answer(text, caller=caller, channel=channel, prepared=admission.prepared, generator=generator,
                     config=config, summary=summary, slot=slot, record=record, history=tuple(history),
                     resolve=resolve, answer_key=answer_key, conversation=admission.conversation,
                     touch=not admission.started)
    return AnswerStream(events, summary, answer_key, admission.conversation)


@dataclass(frozen=True)
class Admission:
    """What a question reads before it starts: the caller's audiences and retriever, the stored conversation's last
    turns (None when it names none) and the conversation it is asked in (`started`: by it, stored with its log
    row)."""

    prepared: PreparedCaller
    history: tuple[Turn, ...] | None
    conversation: Conversation | None
    started: bool = False


@database_available()
def admission_reads(
    caller: "Caller", question: str, audiences: tuple[str, ...] | None, conversation: Conversation | None, keep: bool,
) -> Admission:
    """What a question reads before it starts, inside one database call: the caller's audiences and retriever, then
    the stored conversation's last turns with what the caller may see now, or a new conversation when `keep` (not
    stored yet: `conversation_new`; None when the caller has neither user nor session)."""
    prepared = _prepare(caller.user, audiences)
    if conversation is not None:
        return Admission(prepared, history_of(conversation, audiences=prepared.audiences, limit=MAX_HISTORY),
                         conversation)
    if keep:
        started = conversation_new(caller=caller, question=question)
        return Admission(prepared, None, started, started=started is not None)
    return Admission(prepared, None, None)


async def _answer(
    question: str,
    *,
    caller: Caller,
    channel: str,
    prepared: PreparedCaller,
    generator: Generator,
    config: PipelineConfig,
    summary: AnswerSummary,
    slot: contextlib.AsyncExitStack,
    record: bool,
    history: tuple[Turn, ...],
    resolve: Resolver,
    answer_key: uuid.UUID,
    conversation: Conversation | None = None,
    touch: bool = True,
) -> AsyncIterator[Event]:
    recorded = False

    async def record_once() -> None:
        nonlocal recorded
        if record and not recorded:
            recorded = True  # before the write: a cancellation while it runs must not write a second row
            stats = getattr(generator, "stats", None)
            await _record(
                summary, caller=caller, audiences=prepared.audiences, channel=channel, generator=generator.name,
                generation=stats.as_dict() if stats is not None else {}, answer_key=answer_key,
                conversation=conversation, touch=touch,
            )

    try:
        done: AnswerDone | None = None
        # The concurrent-answer slots, given back when the answer ends however it ends, before its log row is
        # written: the log holds nobody's place.
        async with slot:
            answered = question
            if history:
                resolution = await resolve_in_context(question, history, config=config, resolve=resolve)
                if resolution.resolved:
                    answered = resolution.question
                    resolved = QuestionResolved(question, answered)
                    summary.add(resolved)
                    yield resolved
            retriever = bound_to_question(prepared.retriever, answered)  # hybrid: the question's vector, once
            async for event in answer_events(answered, retriever=retriever, generator=generator, config=config):
                summary.add(event)
                if isinstance(event, AnswerDone):  # the last event
                    done = event
                    continue
                yield event
        if done is not None:
            # The end comes once the row (and a conversation the question started) is stored: the permalink and the
            # conversation it carries, or a follow-up naming that conversation, find them however soon they come.
            await record_once()
            yield done
    finally:
        await record_once()  # an answer cut off, or broken, is logged as it ended


async def _record(
    summary: AnswerSummary, *, caller: Caller, audiences: tuple[str, ...], channel: str, generator: str,
    generation: dict, answer_key: uuid.UUID | None = None, conversation: Conversation | None = None,
    touch: bool = True,
) -> None:
    """Log the answer; if that fails, log the failure as an error and keep a row saying so (the answer stands)."""
    try:
        await log_writer(log_answer, log_answers).write(  # with the rows of answers ending meanwhile
            summary, caller=caller, channel=channel, generator=generator, audiences=audiences, generation=generation,
            answer_key=answer_key, conversation=conversation, touch=touch,
        )
    except Exception as error:  # the answer has been delivered: a log that cannot be written must not undo it
        failure = f"{type(error).__name__}: {_storable(str(error))}"
        # The question or the error may hold what broke the insert (a lone surrogate): this line must not.
        logger.error(
            "Could not write the conversation log for %s (%s)\n%s", _storable(summary.question[:80]), failure,
            _storable("".join(traceback.format_exception(error))),
        )
        try:
            await db_call(log_failure)(
                summary, caller=caller, channel=channel, generator=generator,
                error=f"The conversation log could not be written: {failure}", answer_key=answer_key,
                conversation=conversation, touch=touch,
            )
        except Exception as second:
            logger.error("Could not write the row marking that failure either (%s)", _storable(repr(second)))


def _storable(text: str) -> str:
    """The text with lone surrogates and NUL escaped (\\ud800, \\x00): any database and log can hold it."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def _asked(
    caller: Caller, *, channel: str, generator: str, answer_key: uuid.UUID | None = None,
    conversation: Conversation | None = None, touch: bool = True,
) -> dict[str, Any]:
    """A log row's fields that say who asked, where, in which conversation, and which generator answered (and the
    answer's key); a conversation this question started is stored now, and `touch` marks a stored one asked in now
    (not needed for one this question started)."""
    if conversation is not None:
        conversation_store(conversation, touch=touch)
    return {
        "conversation": conversation,
        "user": caller.signed_in_user,
        "session_key": caller.session_key or "",
        "channel": channel,
        "generator": generator,
        **({"answer_key": answer_key} if answer_key is not None else {}),
    }


@contextlib.contextmanager
def _stored_together(conversations: Iterable[Conversation | None]) -> Iterator[None]:
    """One transaction for log rows and the conversations their questions started: if it rolls back, those
    conversations are unstored again (a row written after, such as the failure's, stores them anew)."""
    new = [c for c in conversations if c is not None]
    new = [c for c in new if c.pk is None]
    try:
        with transaction.atomic():
            yield
    except BaseException:
        for c in new:
            c.pk = None
        raise


def log_failure(
    summary: AnswerSummary, *, caller: Caller, channel: str, generator: str, error: str,
    answer_key: uuid.UUID | None = None, conversation: Conversation | None = None, touch: bool = True,
) -> QuestionLog:
    """Store the least a log row holds: who asked what (escaped), on which channel, and why the row is short."""
    with _stored_together([conversation]):
        return QuestionLog.objects.create(
            **_asked(caller, channel=channel, generator=generator, answer_key=answer_key, conversation=conversation,
                     touch=touch),
            question=_storable(summary.question),
            status=row_status(summary),
            error=error,
        )


def _answer_row(
    summary: AnswerSummary,
    *,
    caller: Caller,
    audiences: tuple[str, ...],
    channel: str,
    generator: str,
    generation: dict | None = None,
    answer_key: uuid.UUID | None = None,
    conversation: Conversation | None = None,
    touch: bool = True,
) -> QuestionLog:
    """One answer's log row, not saved yet (its conversation stored or touched: `_asked`)."""
    return QuestionLog(
        **_asked(caller, channel=channel, generator=generator, answer_key=answer_key, conversation=conversation,
                 touch=touch),
        audiences=list(audiences),
        generation=generation or {},
        **log_row(summary),
    )


def log_answer(summary: AnswerSummary, **fields: Any) -> QuestionLog:
    """Store one answer in the conversation log (under `answer_key` when the stream issued one), with the conversation
    it started; `touch` as `_asked`. The fields are `_answer_row`'s."""
    with _stored_together([fields.get("conversation")]):
        row = _answer_row(summary, **fields)
        row.save(force_insert=True)
        return row


def log_answers(items: Sequence[Item]) -> list[BaseException | None]:
    """Store several answers' rows (each a `log_answer` call's arguments) in one transaction and one INSERT, the
    conversations they started in one more; if that fails, each row alone with `log_answer`. Each row's outcome:
    None when stored, else what storing it raised."""
    started = {id(c): c for _, fields in items if (c := fields.get("conversation")) is not None and c.pk is None}
    try:
        with _stored_together(started.values()):
            Conversation.objects.bulk_create(started.values())
            QuestionLog.objects.bulk_create([_answer_row(summary, **fields) for summary, fields in items])
        return [None] * len(items)
    except Exception:  # noqa: BLE001  (one unstorable row must not cost the others theirs: each alone)
        outcomes: list[BaseException | None] = []
        for summary, fields in items:
            try:
                log_answer(summary, **fields)
                outcomes.append(None)
            except Exception as error:  # noqa: BLE001  (that row's own outcome, raised to its answer)
                outcomes.append(error)
        return outcomes
