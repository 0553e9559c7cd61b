"""The one entry point of §5: a question in, the §6 events out, with only verified sentences shown."""
import time
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
    AnswerDone,
    AnswerFailed,
    AnswerRefused,
    BlocksIssued,
    Citation,
    ConflictSide,
    Event,
    IssuedBlock,
    SentenceDropped,
    SentenceVerified,
)
from answers.pipeline.gates import find_conflict, gate_no_material
from answers.pipeline.generation import GenerationFailed, GenerationRequest, Generator
from answers.pipeline.sentences import SentenceBuffer
from answers.pipeline.tokenize import tokenize
from answers.pipeline.types import Block, Conflict, Retrieved
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
INCOMPLETE_NOTICE = "The answer was cut off; the sentences shown were verified, but it may be incomplete."


class Retriever(Protocol):
    """The caller's view of the index: search and vocabulary over the chunks that caller may see."""

    def search(self, terms: Sequence[str], *, k: int) -> list[Retrieved]:
        """Top k chunks by BM25 score, ties by chunk id."""
        ...

    def has_term(self, term: str) -> bool:
        """Whether the term occurs in any chunk the caller may see."""
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

    retrieved = retriever.search(tokenize(question, config.tokenizer), k=config.top_k)
    timings["retrieve_ms"] = elapsed()
    ranked = tuple((hit.record.chunk_id, hit.score) for hit in retrieved)
    if gate_no_material(question=question, retrieved=retrieved, has_term=retriever.has_term, config=config):
        yield BlocksIssued(blocks=(), context_tokens=0, retrieved=ranked)
        yield AnswerRefused(NO_MATERIAL, NO_MATERIAL_MESSAGE)
        yield AnswerDone(REFUSED, {"blocks": 0, "shown": 0, "dropped": 0}, {**timings, "total_ms": elapsed()})
        return
    assembly = assemble_blocks(retrieved, config=config)
    blocks = assembly.blocks
    yield BlocksIssued(blocks=_issued(blocks), context_tokens=assembly.tokens_used, retrieved=ranked)
    conflict = find_conflict(blocks, config=config, question=question)
    if conflict is not None:
        yield AnswerRefused(CONFLICT, CONFLICT_MESSAGE, sides=_sides(conflict))
        yield AnswerDone(REFUSED, {"blocks": len(blocks), "shown": 0, "dropped": 0}, {**timings, "total_ms": elapsed()})
        return

    by_number = {block.number: block for block in blocks}
    common = common_terms(blocks, config=config)
    shown = dropped = 0
    failure: GenerationFailed | None = None
    feedback: tuple[str, ...] = ()
    attempts = 2 if generator.regenerates else 1
    for attempt in range(attempts):
        reasons: list[str] = []
        buffer = SentenceBuffer()
        try:
            async for delta in generator.stream(GenerationRequest(question, blocks, feedback)):
                for sentence in buffer.feed(delta):
                    event = _verified(sentence, by_number, config=config, common=common)
                    if isinstance(event, SentenceVerified):
                        shown += 1
                        timings.setdefault("first_sentence_ms", elapsed())
                    else:
                        dropped += 1
                        reasons.append(f'"{event.text}": {"; ".join(event.reasons)}')
                    yield event
        except GenerationFailed as error:
            failure = error
            _, tail = buffer.flush()
            if tail:
                dropped += 1
                yield SentenceDropped(tail, ("unfinished when the generator stopped",))
            break
        complete, tail = buffer.flush()
        for sentence in complete:
            event = _verified(sentence, by_number, config=config, common=common)
            shown += isinstance(event, SentenceVerified)
            dropped += isinstance(event, SentenceDropped)
            if isinstance(event, SentenceDropped):
                reasons.append(f'"{event.text}": {"; ".join(event.reasons)}')
            else:
                timings.setdefault("first_sentence_ms", elapsed())
            yield event
        if tail:
            dropped += 1
            yield SentenceDropped(tail, ("unfinished sentence",))
        if shown or attempt + 1 == attempts:
            break
        feedback = tuple(reasons) or ("No sentence cited a block with [n] markers.",)

    timings["total_ms"] = elapsed()
    counts = {"blocks": len(blocks), "shown": shown, "dropped": dropped}
    if failure is not None:
        if shown:
            yield AnswerFailed(INCOMPLETE_NOTICE)
            yield AnswerDone(INCOMPLETE, counts, timings)
        else:
            yield AnswerFailed(failure.message)
            yield AnswerDone(FAILED, counts, timings)
        return
    if not shown:
        yield AnswerRefused(UNSUPPORTED, UNSUPPORTED_MESSAGE)
        yield AnswerDone(REFUSED, counts, timings)
        return
    yield AnswerDone(ANSWERED, counts, timings)


def _verified(
    sentence: str, blocks: dict[int, Block], *, config: PipelineConfig, common: frozenset[str]
) -> SentenceVerified | SentenceDropped:
    verdict = verify_sentence(sentence, blocks=blocks, config=config, common=common)
    if not verdict.shown:
        return SentenceDropped(verdict.text, verdict.reasons)
    return SentenceVerified(
        verdict.text,
        tuple(
            Citation(n, blocks[n].record.chunk_id, blocks[n].record.source_title, blocks[n].record.updated_on)
            for n in verdict.passing
        ),
    )


def _issued(blocks: tuple[Block, ...]) -> tuple[IssuedBlock, ...]:
    return tuple(
        IssuedBlock(b.number, b.record.chunk_id, b.record.source_title, b.record.updated_on) for b in blocks
    )


def _sides(conflict: Conflict) -> tuple[ConflictSide, ...]:
    return tuple(
        ConflictSide(s.sentence, s.block.record.chunk_id, s.block.record.source_title, s.block.record.updated_on)
        for s in conflict.sides
    )
