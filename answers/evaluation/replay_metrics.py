"""Judging replayed answers: each scripted sentence delivered or dropped (with the verifier's reasons), counted by
label, for the development and the held-out cases apart.

A sentence is judged only when the model path streamed it with every citation resolved and the pipeline judged it as
one sentence; anything else is a problem of the replay set (a chunk not issued for the question, a question refused
before generation), reported by case and never counted.
"""
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from answers.evaluation.replay import FALSE_KINDS, LABELS, TRUE, ReplayCase, Resolved
from answers.pipeline.text.sentences import parse_markers
from answers.present.api import AnswerSummary

DEV, HELD_OUT, ALL = "dev", "held_out", "all"
PARTS = (DEV, HELD_OUT, ALL)


@dataclass(frozen=True)
class SentenceOutcome:
    """What became of one scripted sentence: shown (with the chunks and span quotes of its passing citations) or
    dropped (with the verifier's reasons)."""

    case_id: str
    held_out: bool
    label: str
    text: str
    note: str
    delivered: bool
    reasons: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()
    spans: tuple[str, ...] = ()

    @property
    def wrong(self) -> bool:
        """A false sentence shown, or a true one dropped."""
        return self.delivered != (self.label == TRUE)


@dataclass(frozen=True)
class LabelCount:
    """Sentences of one label and how many of them were delivered."""

    label: str
    sentences: int
    delivered: int

    @property
    def share(self) -> float | None:
        return self.delivered / self.sentences if self.sentences else None


@dataclass(frozen=True)
class ReplayRun:
    """Every judged sentence, and the replay set's problems (sentences that could not be judged, and why)."""

    path: str
    cases: int
    outcomes: tuple[SentenceOutcome, ...]
    problems: tuple[str, ...]

    def counts(self, part: str = ALL) -> tuple[LabelCount, ...]:
        """Sentences and deliveries per label (LABELS order) in the part: dev, held_out or all."""
        chosen = [o for o in self.outcomes if part == ALL or o.held_out == (part == HELD_OUT)]
        return tuple(
            LabelCount(
                label, sum(o.label == label for o in chosen), sum(o.label == label and o.delivered for o in chosen)
            )
            for label in LABELS
        )

    def floor_values(self) -> dict[str, float]:
        """The figures a floor can bound, over the dev part (a held-out part is measured, never gated): false
        sentences delivered per kind, the share of true sentences delivered (0 when there are none)."""
        counts = {count.label: count for count in self.counts(DEV)}
        values: dict[str, float] = {f"max_replay_{kind}_delivered": counts[kind].delivered for kind in FALSE_KINDS}
        values["min_replay_true_delivered"] = counts[TRUE].share or 0.0
        return values

    @property
    def wrong(self) -> tuple[SentenceOutcome, ...]:
        """The wrong outcomes of the dev part: a held-out part is counted, never named (it is never tuned on)."""
        return tuple(o for o in self.outcomes if o.wrong and not o.held_out)

    @property
    def held_out_wrong(self) -> int:
        """How many held-out sentences had the wrong outcome."""
        return sum(1 for o in self.outcomes if o.wrong and o.held_out)


REPLAY_FLOOR_KEYS = frozenset({*(f"max_replay_{kind}_delivered" for kind in FALSE_KINDS), "min_replay_true_delivered"})


def judge_replay(
    cases: Sequence[ReplayCase],
    summaries: Sequence[AnswerSummary],
    streamed: Mapping[str, tuple[Resolved, ...]],
    *,
    path: str,
) -> ReplayRun:
    """Match each case's scripted sentences with the sentences its answer showed and dropped; `streamed` maps a
    case id to its sentences as the fake server streamed them (absent: the model was never asked)."""
    outcomes: list[SentenceOutcome] = []
    problems: list[str] = []
    for case, summary in zip(cases, summaries, strict=True):
        resolved = streamed.get(case.id)
        if resolved is None:
            refusal = summary.refusal.reason if summary.refusal else summary.status
            problems.append(f"{case.id}: the model was never asked (the answer ended {refusal} before generation)")
            continue
        shown = {s.text: s for s in summary.sentences}
        dropped = {d.text: d for d in summary.dropped}
        scripted = set()
        for item in resolved:
            sentence = item.sentence
            text = parse_markers(item.text).text
            scripted.add(text)
            if item.problems:
                problems.append(f"{case.id}: {sentence.plain!r}: {'; '.join(item.problems)}")
                continue
            outcome = SentenceOutcome(case.id, case.held_out, sentence.label, sentence.plain, sentence.note, False)
            if text in shown:
                citations = shown[text].citations
                outcomes.append(dataclasses.replace(
                    outcome, delivered=True, cited=tuple(c.chunk_id for c in citations),
                    spans=tuple(c.span.quote for c in citations if c.span is not None),
                ))
            elif text in dropped:
                outcomes.append(dataclasses.replace(outcome, reasons=dropped[text].reasons))
            else:
                problems.append(f"{case.id}: {sentence.plain!r} was never judged as one sentence")
        problems += [f"{case.id}: {text!r} was shown but never scripted" for text in shown if text not in scripted]
    return ReplayRun(path=path, cases=len(cases), outcomes=tuple(outcomes), problems=tuple(problems))
