"""The replay figures as rows shared by the terminal, the JSON file and report.md."""
import dataclasses
from typing import Any

from answers.evaluation.replay import TRUE
from answers.evaluation.replay_metrics import ALL, DEV, HELD_OUT, PARTS, LabelCount, ReplayRun, SentenceOutcome

PART_TITLES = {DEV: "dev", HELD_OUT: "held out", ALL: "all"}
HEADER = ("label", *(f"{PART_TITLES[part]}: delivered" for part in PARTS))


def _cell(count: LabelCount) -> str:
    return f"{count.delivered}/{count.sentences}"


def replay_rows(run: ReplayRun) -> list[tuple[str, ...]]:
    """One row per label: delivered of sentences in dev, held out and all (for `true` delivering is right, for every
    other label it is wrong)."""
    by_part = [run.counts(part) for part in PARTS]
    rows = [(counts[0].label, *(_cell(c) for c in counts)) for counts in zip(*by_part, strict=True)]
    falses = [(sum(c.delivered for c in counts if c.label != TRUE), sum(c.sentences for c in counts if c.label != TRUE))
              for counts in by_part]
    rows.append(("false, every kind", *(f"{delivered}/{total}" for delivered, total in falses)))
    return rows


def outcome_line(outcome: SentenceOutcome) -> str:
    """A dev wrong outcome as one line: the case, the label, the sentence, and what the verifier said or showed."""
    if outcome.delivered:
        spans = "; ".join(f'"{quote}"' for quote in outcome.spans) or "no span"
        said = f"delivered citing {', '.join(outcome.cited)}, span {spans}"
    else:
        said = f"dropped: {'; '.join(outcome.reasons)}"
    note = f" [the document: {outcome.note}]" if outcome.note else ""
    return f"{outcome.case_id}  {outcome.label}: {outcome.text} -> {said}{note}"


def replay_json(run: ReplayRun) -> dict[str, Any]:
    """The replay's figures per part and label, the floor values, every outcome and every problem."""
    return {
        "file": run.path,
        "cases": run.cases,
        "counts": {
            part: {c.label: {"sentences": c.sentences, "delivered": c.delivered} for c in run.counts(part)}
            for part in PARTS
        },
        "floor_values": run.floor_values(),
        "wrong": [outcome_line(o) for o in run.wrong],
        "outcomes": [dataclasses.asdict(o) for o in run.outcomes],
        "problems": list(run.problems),
    }
