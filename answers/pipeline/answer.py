"""The one entry point of §5: a question in, the §6 events out, with only verified sentences shown."""
import time
import traceback
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Protocol

from answers.pipeline.assemble import assemble_blocks
from answers.pipeline.config import PipelineConfig
from answers.pipeline.events import (
    ANSWERED,
    CONFLICT,
    FAILED,
    INCOMPLETE,
    NO_MATERIAL,
    REFUSED,
    UNSUPPORTED,
    AnswerDiagnosed,
    AnswerDone,
    AnswerFailed,
    AnswerRefused,
    BlocksIssued,
    ChunkRef,
    ConflictSide,
    Event,
    SentenceDropped,
    SentenceVerified,
)
from answers.pipeline.gate import find_conflict, gate_no_material
from answers.pipeline.generate.base import GenerationFailed, GenerationRequest, Generator, attempts
from answers.pipeline.generate.extractive import unknown_names
from answers.pipeline.generate.score import corpus_term_weights
from answers.pipeline.lists import sentence_list_item
from answers.pipeline.text.markup import MarkdownSentenceBuffer, PlainSentence
from answers.pipeline.text.questions import question_terms, search_terms
from answers.pipeline.types import Block, Conflict, Retrieved, SupportSpan
from answers.pipeline.verify import common_terms, verify_sentence

NO_MATERIAL_MESSAGE = (
    "Nothing relevant was found in the documents you can see. Try rephrasing the question with the words a "
    "document would use, or check that the document was uploaded."
)
CONFLICT_MESSAGE = (
    "The documents disagree on this, so no answer is given. Both statements are shown below, newest first; "
    "check with the owner of the documents which one holds."
)
UNSUPPORTED_MESSAGE = "Related documents were found, but none of them directly answers this question."
GENERATOR_BROKE = "Something went wrong while the answer was being written."
INCOMPLETE_NOTICE = "The answer was cut off; the sentences shown were verified, but it may be incomplete."


class Retriever(Protocol):
    """The caller's view of the index: search and vocabulary over the chunks that caller may see."""

    def search(self, terms: Sequence[str], *, k: int) -> list[Retrieved]:
        """Top k chunks by BM25 score, ties by chunk id."""
        ...

    def has_term(self, term: str) -> bool:
        """Whether the term occurs in any chunk the caller may see."""
        ...

    def document_frequencies(self, terms: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many of the caller's chunks hold each term, and how many chunks the caller sees."""
        ...


async def answer_events(
    question: str,
    *,
    retriever: Retriever,
    generator: Generator,
    config: PipelineConfig,
    clock: Callable[[], float] = time.perf_counter,
) -> AsyncIterator[Event]:
    """Yield meta, then verified sentences (or a refusal), then done; dropped sentences are yielded for the log."""
    started = clock()
    timings: dict[str, float] = {}

    def elapsed() -> float:
        return round((clock() - started) * 1000, 1)

    retrieved = retriever.search(search_terms(question, config.tokenizer), k=config.top_k)
    timings["retrieve_ms"] = elapsed()
    ranked = tuple((hit.record.chunk_id, hit.score) for hit in retrieved)
    gate = gate_no_material(question=question, retrieved=retrieved, has_term=retriever.has_term, config=config)
    if gate:
        yield BlocksIssued(blocks=(), context_tokens=0, retrieved=ranked)
        yield AnswerRefused(NO_MATERIAL, NO_MATERIAL_MESSAGE)
        yield AnswerDiagnosed(gate=gate)
        yield AnswerDone(
            REFUSED, {"blocks": 0, "shown": 0, "dropped": 0}, {**timings, "total_ms": elapsed()}, generator.name
        )
        return
    assembly = assemble_blocks(retrieved, config=config)
    blocks = assembly.blocks
    yield BlocksIssued(blocks=_issued(blocks), context_tokens=assembly.tokens_used, retrieved=ranked)
    terms = question_terms(question, config=config)  # once: the conflict check and the reader's weights read them
    conflict = find_conflict(blocks, config=config, question=question, terms=terms)
    if conflict is not None:
        yield AnswerRefused(CONFLICT, CONFLICT_MESSAGE, sides=_sides(conflict))
        yield AnswerDiagnosed(gate=_conflict_reason(conflict), skipped=assembly.skipped)
        yield AnswerDone(
            REFUSED,
            {"blocks": len(blocks), "shown": 0, "dropped": 0},
            {**timings, "total_ms": elapsed()},
            generator.name,
        )
        return

    by_number = {block.number: block for block in blocks}
    unknown = unknown_names(question, has_term=retriever.has_term, config=config)
    common = common_terms(blocks, config=config)
    weights = _term_weights(terms, retriever)
    shown = dropped = 0
    failure: GenerationFailed | None = None
    broke = ""  # what broke the generator, for staff
    feedback: tuple[str, ...] = ()

    def judge(sentence: PlainSentence, reasons: list[str]) -> SentenceVerified | SentenceDropped:
        nonlocal shown, dropped
        event = _verified(sentence, by_number, config=config, common=common)
        if isinstance(event, SentenceVerified):
            shown += 1
            timings.setdefault("first_sentence_ms", elapsed())
        else:
            dropped += 1
            reasons.append(f'"{event.text}": {"; ".join(event.reasons)}')
        return event

    attempt = 0
    while True:  # until a sentence is verified, the generator fails, or its attempts are spent
        reasons: list[str] = []
        buffer = MarkdownSentenceBuffer()  # the model's Markdown out, its list items kept (text/markup.py)
        sentences: list[PlainSentence] = []
        try:
            async for delta in generator.stream(
                GenerationRequest(question, blocks, feedback, weights, attempt, unknown)
            ):
                for sentence in buffer.feed(delta):
                    yield judge(sentence, reasons)
            sentences, tail = buffer.flush()
            unfinished = "unfinished sentence"
        except GenerationFailed as error:
            failure = error  # its message is the answer's error; what caused it is for staff
            broke = "".join(traceback.format_exception(error.__cause__)) if error.__cause__ else ""
        except Exception:  # a generator bug must end the answer as failed, never as a half-verified one
            failure, broke = GenerationFailed(GENERATOR_BROKE), traceback.format_exc()
        if failure is not None:
            # Sentences completed before the failure still count; only the unfinished tail is dropped.
            sentences, tail = buffer.flush(finished=False)
            unfinished = "unfinished when the generator stopped"
        for sentence in sentences:
            yield judge(sentence, reasons)
        if tail:
            dropped += 1
            yield SentenceDropped(tail, (unfinished,))
        attempt += 1
        if shown or failure is not None or attempt >= attempts(generator):  # asked after each try: it may change
            break
        if not generator.regenerates and not reasons:
            break  # a generator of ranked answers that wrote nothing has no further one to offer
        feedback = tuple(reasons) or ("No sentence cited a block with [n] markers.",)

    timings["total_ms"] = elapsed()
    counts = {"blocks": len(blocks), "shown": shown, "dropped": dropped}
    if failure is not None:
        yield AnswerFailed(INCOMPLETE_NOTICE if shown else failure.message)
        status = INCOMPLETE if shown else FAILED
    elif not shown:
        yield AnswerRefused(UNSUPPORTED, UNSUPPORTED_MESSAGE)
        status = REFUSED
    else:
        status = ANSWERED
    if assembly.skipped or broke:
        yield AnswerDiagnosed(skipped=assembly.skipped, generator_error=broke)
    yield AnswerDone(status, counts, timings, generator.name)


def _term_weights(terms: Sequence[str], retriever: Retriever) -> dict[str, float] | None:
    """The question's terms weighted by how rare they are among the caller's chunks (None when none tells)."""
    frequencies, count = retriever.document_frequencies(terms)
    return corpus_term_weights(frequencies, count)


def _verified(
    sentence: PlainSentence, blocks: dict[int, Block], *, config: PipelineConfig, common: frozenset[str]
) -> SentenceVerified | SentenceDropped:
    verdict = verify_sentence(sentence.text, blocks=blocks, config=config, common=common)
    if not verdict.shown:
        return SentenceDropped(verdict.text, verdict.reasons)
    refs = tuple(_ref(blocks[n], span) for n, span in zip(verdict.passing, verdict.spans, strict=True))
    return SentenceVerified(verdict.text, refs, sentence_list_item(sentence, verdict.text, refs, blocks))


def _ref(block: Block, span: SupportSpan | None = None) -> ChunkRef:
    record = block.record
    return ChunkRef(block.number, record.chunk_id, record.source_title, record.updated_on, span)


def _issued(blocks: tuple[Block, ...]) -> tuple[ChunkRef, ...]:
    return tuple(_ref(block) for block in blocks)


def _conflict_reason(conflict: Conflict) -> str:
    first, second = conflict.sides
    return (
        f"conflict: {first.value} {first.unit} in {first.block.record.chunk_id} against "
        f"{second.value} {second.unit} in {second.block.record.chunk_id}"
    )


def _sides(conflict: Conflict) -> tuple[ConflictSide, ...]:
    return tuple(ConflictSide(side.sentence, _ref(side.block, side.span)) for side in conflict.sides)
