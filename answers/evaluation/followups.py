"""The follow-up table (answers/evaluation/followups/): each conversation's earlier turns answered through the site's
own entry point, its last question resolved, and the share resolved as intended (dev and held-out apart)."""
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asgiref.sync import async_to_sync

from answers.evaluation.golden import GoldenCase
from answers.evaluation.metrics import CaseResult, judge_case, summarise
from answers.evaluation.runner import CHANNEL, chunk_facts, observation_from
from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Resolution, Turn
from answers.present.api import AnswerSummary
from answers.services import (
    MAX_HISTORY,
    Caller,
    GeneratorFactory,
    Resolver,
    ask,
    resolve_followup,
    resolve_in_context,
    turn_from,
)
from corpus_admin.visibility import PUBLIC_ONLY

KINDS = ("ellipsis", "reference", "standalone")
# The floor file's keys for this table: the dev share of follow-ups resolved as intended and the dev standalone
# questions changed. The held-out part has none: it is measured and reported, never gated (as the golden and replay
# floors judge their dev part only), since a gate on it would force tuning on it.
FLOOR_KEYS = ("min_followups_resolved", "max_standalone_changed")


class FollowupError(ValueError):
    """A follow-up table that cannot be read, with the file and line at fault."""


@dataclass(frozen=True)
class FollowupCase:
    """One conversation: its questions in order (the last is resolved) and what its resolution must hold."""

    id: str
    kind: str
    turns: tuple[str, ...]
    contains: tuple[str, ...]  # empty: the last question must come back unchanged
    held_out: bool
    line: int = 0


@dataclass(frozen=True)
class FollowupResult:
    """A case's resolution and its verdict."""

    case: FollowupCase
    resolution: Resolution
    missing: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return self.resolution.question != self.case.turns[-1]

    @property
    def ok(self) -> bool:
        if not self.case.contains:
            return not self.changed
        return not self.missing


@dataclass(frozen=True)
class FollowupScore:
    """One part of the table (dev, held-out): follow-ups resolved as intended, standalone questions changed."""

    followups: int
    resolved: int
    standalone: int
    changed: int

    @property
    def share(self) -> float:
        return round(self.resolved / self.followups, 3) if self.followups else 0.0


def load_followups(path: Path | str) -> tuple[FollowupCase, ...]:
    """Read every conversation of a follow-up table; FollowupError names the file and line of a bad one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FollowupError(f"{path}: cannot read the follow-up table ({error})") from None
    cases = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            try:
                cases.append(_parse(raw, line=number))
            except (ValueError, KeyError, TypeError) as error:
                raise FollowupError(f"{path}, line {number}: {error}") from None
    return tuple(cases)


def _parse(raw: str, *, line: int) -> FollowupCase:
    data = json.loads(raw)
    turns = data["turns"]
    if not isinstance(turns, list) or not turns or not all(isinstance(t, str) and t.strip() for t in turns):
        raise ValueError('"turns" must be a list of questions')
    if data["kind"] not in KINDS:
        raise ValueError(f'"kind" must be one of {", ".join(KINDS)}')
    expect = data["expect"]
    if expect == "unchanged":
        contains: tuple[str, ...] = ()
    elif isinstance(expect, dict) and isinstance(expect.get("contains"), list) and expect["contains"]:
        contains = tuple(str(word) for word in expect["contains"])
    else:
        raise ValueError('"expect" must be "unchanged" or {"contains": [...]}')
    return FollowupCase(str(data["id"]), data["kind"], tuple(turns), contains, bool(data["held_out"]), line)


def judge_followup(case: FollowupCase, resolution: Resolution) -> FollowupResult:
    """Which of the case's expected word beginnings the resolved question lacks (case-insensitive)."""
    text = resolution.question.lower()
    return FollowupResult(case, resolution, tuple(word for word in case.contains if not _written(word.lower(), text)))


def _written(word: str, text: str) -> bool:
    """Whether the text holds the word beginning, or a verb's -ing form of a word in -e ("upgrade": "upgrading")."""
    return word in text or (word.endswith("e") and len(word) > 3 and f"{word[:-1]}ing" in text)


def run_followups(
    cases: Sequence[FollowupCase],
    *,
    config: PipelineConfig,
    make_generator: GeneratorFactory,
    resolve: Resolver = resolve_followup,
) -> tuple[FollowupResult, ...]:
    """Answer every conversation's earlier turns as a public caller would, then resolve and judge its last one."""
    return async_to_sync(_run_all)(cases, config, make_generator, resolve)


async def _run_all(
    cases: Sequence[FollowupCase], config: PipelineConfig, make_generator: GeneratorFactory, resolve: Resolver
) -> tuple[FollowupResult, ...]:
    results = []
    for case in cases:
        history = await conversation_history(case.turns[:-1], config=config, make_generator=make_generator,
                                             resolve=resolve)
        # the last question resolved as an answer to it would be: the service's call
        results.append(judge_followup(case, await resolve_in_context(case.turns[-1], history, config=config,
                                                                     resolve=resolve)))
    return tuple(results)


async def conversation_history(
    questions: Sequence[str], *, config: PipelineConfig, make_generator: GeneratorFactory, resolve: Resolver
) -> tuple[Turn, ...]:
    """The turns of a conversation, each question answered (out of the log) within the turns before it."""
    history: list[Turn] = []
    for question in questions:
        stream = await ask(caller=Caller(limited=False), question=question, channel=CHANNEL, audiences=PUBLIC_ONLY,
                           config=config, make_generator=make_generator, record=False, history=history,
                           resolve=resolve)
        async for _event in stream:
            pass
        history.append(turn_from(stream.summary))
    return tuple(history)


def score_followups(results: Sequence[FollowupResult], *, held_out: bool) -> FollowupScore:
    """The score of the dev part (held_out False) or the held-out part of the results."""
    part = [r for r in results if r.case.held_out == held_out]
    followups = [r for r in part if r.case.contains]
    standalone = [r for r in part if not r.case.contains]
    return FollowupScore(len(followups), sum(r.ok for r in followups), len(standalone),
                         sum(r.changed for r in standalone))


def report_lines(results: Sequence[FollowupResult]) -> list[str]:
    """The table's result as the evaluate command prints it: each dev miss, then dev and held-out apart (held-out
    misses are counted, not shown: the rules are never tuned on them)."""
    lines = ["", f"Follow-up questions ({len(results)} conversations):"]
    for result in results:
        if not result.ok and not result.case.held_out:
            wanted = f"lacks {', '.join(result.missing)}" if result.case.contains else "changed"
            lines.append(f"  miss {result.case.id}: {result.case.turns[-1]!r} -> {result.resolution.question!r} "
                         f"({wanted})")
    for name, held_out in (("dev", False), ("held-out", True)):
        score = score_followups(results, held_out=held_out)
        lines.append(f"  {name:<8}  follow-ups resolved as intended {score.resolved}/{score.followups} "
                     f"({score.share:.1%}), standalone changed {score.changed}/{score.standalone}")
    return lines


def floor_failures(results: Sequence[FollowupResult], floor: dict[str, float]) -> list[str]:
    """What of the dev part falls under the floor: its share of follow-ups resolved, its standalone questions changed
    (the held-out part is reported by report_lines, not judged)."""
    dev = score_followups(results, held_out=False)
    failures = []
    if "min_followups_resolved" in floor and dev.share < floor["min_followups_resolved"]:
        failures.append(f"follow-ups resolved {dev.share:.3f} is under the floor {floor['min_followups_resolved']}")
    if "max_standalone_changed" in floor and dev.changed > floor["max_standalone_changed"]:
        failures.append(f"{dev.changed} standalone questions were changed")
    return failures


@dataclass(frozen=True)
class GoldenConversation:
    """The golden set asked as one conversation per audience, each question after the ones before it: the judged
    answers, and the questions the resolver rewrote (case id, asked, answered)."""

    results: tuple[CaseResult, ...]
    rewritten: tuple[tuple[str, str, str], ...]


def golden_in_conversation(
    cases: Sequence[GoldenCase],
    *,
    config: PipelineConfig,
    make_generator: GeneratorFactory,
    resolve: Resolver = resolve_followup,
) -> GoldenConversation:
    """Ask the golden cases in file order as one conversation per audience (the last MAX_HISTORY turns as history),
    so that a standalone question resolved into something else shows up as a changed answer."""
    summaries = async_to_sync(_ask_in_conversation)(cases, config, make_generator, resolve)
    observations = [observation_from(summary, latency_ms=0.0) for summary in summaries]
    chunk_ids = {c for o in observations for c in o.retrieved} | {
        c for o in observations for sentence in o.sentences for c in sentence.chunk_ids
    }
    chunks = chunk_facts(chunk_ids)
    results = tuple(judge_case(case, seen, chunks=chunks) for case, seen in zip(cases, observations, strict=True))
    rewritten = tuple((case.id, case.question, summary.resolved.resolved)
                      for case, summary in zip(cases, summaries, strict=True) if summary.resolved)
    return GoldenConversation(results, rewritten)


async def _ask_in_conversation(
    cases: Sequence[GoldenCase], config: PipelineConfig, make_generator: GeneratorFactory, resolve: Resolver
) -> list[AnswerSummary]:
    histories: dict[str, list[Turn]] = {}
    summaries = []
    for case in cases:
        history = histories.setdefault(case.audience, [])
        stream = await ask(caller=Caller(limited=False), question=case.question, channel=CHANNEL,
                           audiences=case.audiences, config=config, make_generator=make_generator, record=False,
                           history=history[-MAX_HISTORY:], resolve=resolve)
        async for _event in stream:
            pass
        history.append(turn_from(stream.summary))
        summaries.append(stream.summary)
    return summaries


def conversation_lines(conversation: GoldenConversation, *, alone: float, k: int) -> list[str]:
    """The golden set in conversation as the evaluate command prints it: its status accuracy beside the one of the
    questions asked alone, and each question the resolver rewrote."""
    accuracy = summarise(conversation.results, k=k).status_accuracy
    lines = ["", f"Golden set asked as one conversation per audience ({len(conversation.results)} questions): status "
             f"accuracy {accuracy:.3f} (asked alone {alone:.3f}), questions rewritten "
             f"{len(conversation.rewritten)}/{len(conversation.results)}"]
    lines += [f"  rewritten {case_id}: {asked!r} -> {answered!r}" for case_id, asked, answered
              in conversation.rewritten]
    return lines
