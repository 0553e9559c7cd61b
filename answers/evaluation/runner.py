"""Running golden cases through the site's own entry point, with the caller's audience and given thresholds."""
import time
from collections.abc import Iterable, Sequence
from typing import Protocol

from asgiref.sync import async_to_sync

from answers.evaluation.golden import GoldenCase
from answers.evaluation.metrics import CaseResult, Delivered, Observation, judge_case
from answers.evaluation.recheck import CitedChunk
from answers.pipeline.config import PipelineConfig
from answers.present.api import AnswerSummary
from answers.services import Caller, GeneratorFactory, ask
from corpus_admin.models import Chunk

CHANNEL = "eval"  # never stored: evaluation answers are asked with record=False
_BATCH = 500


def evaluate_cases(
    cases: Sequence[GoldenCase], *, config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[CaseResult, ...]:
    """Ask every case with the given thresholds and generators and judge each answer."""
    observations = observe_cases(cases, config=config, make_generator=make_generator)
    chunk_ids = {c for o in observations for c in o.retrieved} | {
        c for o in observations for sentence in o.sentences for c in sentence.chunk_ids
    }
    chunks = chunk_facts(chunk_ids)
    return tuple(judge_case(case, observed, chunks=chunks) for case, observed in zip(cases, observations, strict=True))


class Asked(Protocol):
    """What asking needs of a case: its question and the audiences its caller may see."""

    @property
    def question(self) -> str: ...

    @property
    def audiences(self) -> tuple[str, ...]: ...


def observe_cases(
    cases: Sequence[GoldenCase], *, config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[Observation, ...]:
    """Ask every case in turn and read what each answer produced."""
    answers = ask_cases(cases, config=config, make_generator=make_generator)
    return tuple(observation_from(summary, latency_ms=latency_ms) for summary, latency_ms in answers)


def ask_cases(
    cases: Sequence[Asked], *, config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[tuple[AnswerSummary, float], ...]:
    """Ask every case in turn: each answer's folded events and its latency in ms. async_to_sync keeps the database
    calls on this thread (and its connection)."""
    return async_to_sync(_ask_all)(cases, config, make_generator)


async def _ask_all(
    cases: Sequence[Asked], config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[tuple[AnswerSummary, float], ...]:
    return tuple([await ask_case(case, config=config, make_generator=make_generator) for case in cases])


async def ask_case(
    case: Asked, *, config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[AnswerSummary, float]:
    """Ask one case as a caller of its audience, out of the conversation log, and time it."""
    started = time.perf_counter()
    stream = await ask(
        caller=Caller(limited=False),
        question=case.question,
        channel=CHANNEL,
        audiences=case.audiences,
        config=config,
        make_generator=make_generator,
        record=False,
    )
    async for _event in stream:
        pass
    return stream.summary, (time.perf_counter() - started) * 1000


def observation_from(summary: AnswerSummary, *, latency_ms: float) -> Observation:
    """The parts of a folded answer the evaluation judges."""
    return Observation(
        status=summary.status,
        refusal=summary.refusal.reason if summary.refusal else "",
        sentences=tuple(
            Delivered(s.text, tuple(c.chunk_id for c in s.citations)) for s in summary.sentences
        ),
        retrieved=tuple(chunk_id for chunk_id, _ in (summary.meta.retrieved if summary.meta else ())),
        latency_ms=round(latency_ms, 2),
        issued=tuple(block.chunk_id for block in (summary.meta.blocks if summary.meta else ())),
    )


def chunk_facts(chunk_ids: Iterable[str]) -> dict[str, CitedChunk]:
    """Text, audience and source path of each chunk id that exists (any version)."""
    ids = sorted(set(chunk_ids))
    found: dict[str, CitedChunk] = {}
    for start in range(0, len(ids), _BATCH):
        rows = Chunk.objects.filter(chunk_id__in=ids[start : start + _BATCH]).values_list(
            "chunk_id", "text", "source__audience", "source__path"
        )
        for chunk_id, text, audience, path in rows:
            found[chunk_id] = CitedChunk(chunk_id, text, audience, path)
    return found
