"""The extractive reader's cost per question (§5.5): CPU time of `answer_sentences` on each golden question's blocks.

Each question is retrieved and assembled as the pipeline does it (caller's audiences, top K, the token budget), then
the reader alone is timed: answer units, their scores, the choice. Retrieval, assembly and verification are not in
the figure (bench_retrieval and bench_verify time those). The time is the process's CPU time
(`time.process_time`), so a busy machine lengthens it less than the wall clock; the best of a few rounds is kept. The
reader's cache of sentence terms is emptied before each question, so the figure counts reading every block afresh.
"""
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from answers.pipeline.assemble import assemble_blocks
from answers.pipeline.config import PipelineConfig
from answers.pipeline.generate import score
from answers.pipeline.generate.extractive import answer_sentences
from answers.pipeline.text.questions import search_terms
from answers.pipeline.types import Block, Retrieved


@dataclass(frozen=True)
class ReaderCase:
    """A question with the blocks the pipeline would issue for it."""

    question: str
    blocks: tuple[Block, ...]


def reader_cases(
    questions: Sequence[tuple[str, tuple[str, ...]]],
    *,
    search: Callable[[list[str], tuple[str, ...]], list[Retrieved]],
    config: PipelineConfig,
) -> list[ReaderCase]:
    """Each (question, audiences) with its assembled blocks; a question with no hit has none (the reader still runs)."""
    cases = []
    for question, audiences in questions:
        hits = search(search_terms(question, config.tokenizer), audiences)
        cases.append(ReaderCase(question, assemble_blocks(hits, config=config).blocks))
    return cases


def bench_reader(
    cases: Sequence[ReaderCase], *, config: PipelineConfig, clock: Callable[[], float] = time.process_time
) -> dict[str, float | int]:
    """Time the reader on every case; p50, p95, p99 and max CPU milliseconds, and how many it answered."""
    timings: list[float] = []
    answered = 0
    for case in cases:
        score.clear_caches()  # each question reads its blocks afresh, as bench_verify does
        start = clock()
        sentences = answer_sentences(case.question, case.blocks, config=config)
        timings.append((clock() - start) * 1000)
        answered += bool(sentences)
    ordered = sorted(timings)
    return {
        "questions": len(timings),
        "answered": answered,
        "blocks_mean": round(statistics.fmean(len(c.blocks) for c in cases), 2) if cases else 0.0,
        "p50_ms": round(statistics.median(ordered), 3) if ordered else 0.0,
        "p95_ms": round(percentile(ordered, 0.95), 3),
        "p99_ms": round(percentile(ordered, 0.99), 3),
        "max_ms": round(ordered[-1], 3) if ordered else 0.0,
    }


def percentile(ordered: Sequence[float], share: float) -> float:
    """The value below which `share` of the sorted values lie (0 for none), as bench_verify reads it."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
