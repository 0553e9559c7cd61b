"""Golden cases from the conversation log: a logged question becomes a case of answers/evaluation/golden.py's format,
appended to the file RAG_GOLDEN_APPEND_PATH names (its facts are left for a person to write)."""
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from answers.evaluation.golden import KINDS
from answers.models import QuestionLog
from corpus_admin.selectors import chunk_source_paths

ORDER = ("public", "partner", "internal")
# Characters str.splitlines breaks a line at that json.dumps(ensure_ascii=False) leaves as they are (it escapes the
# control characters): a question holding one would split its case across lines of the file.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


@dataclass(frozen=True)
class Appended:
    """What an append did: the cases written, and each row left out with why."""

    path: Path
    added: tuple[str, ...]
    skipped: tuple[tuple[int, str], ...]


def case_id(log: QuestionLog) -> str:
    """The case's id: the log row's, so the same row is never appended twice."""
    return f"log-{log.pk}"


def expected_kind(log: QuestionLog, *, not_helpful: bool) -> str | None:
    """Answered when it was answered and not rated not helpful; the refusal's kind when refused; else None.

    An answer rated not helpful has no kind the log can tell (it may be wrong, or the documents may not hold the
    answer): a person writes that case by hand.
    """
    if log.status == "answered":
        return None if not_helpful else "answered"
    if log.status == "refused" and log.refusal_kind in KINDS:
        return log.refusal_kind
    return None


def cited_chunks(log: QuestionLog) -> list[str]:
    """The chunks the shown sentences cite, or for a conflict its two sides, in order of first citation."""
    cited = [c["chunk_id"] for s in log.sentences for c in s.get("citations", ())]
    cited += [side["chunk_id"] for side in log.conflict]
    return list(dict.fromkeys(cited))


def audience_of(log: QuestionLog) -> str:
    """The most restricted audience the asker could see (a golden case's `audience`)."""
    seen = [a for a in ORDER if a in (log.audiences or ["public"])]
    return seen[-1] if seen else "public"


def golden_case(log: QuestionLog, *, kind: str, paths: Mapping[str, str]) -> dict[str, Any]:
    """The row as a golden case: question, audience, expected kind, the cited chunks' source paths, no facts yet."""
    sources = list(dict.fromkeys(paths[chunk] for chunk in cited_chunks(log) if chunk in paths))
    return {
        "id": case_id(log),
        "question": log.question,
        "audience": audience_of(log),
        "expect": kind,
        "sources": sources,
        "facts": [],
        "note": f"from the conversation log, row {log.pk}, asked {log.created_at:%Y-%m-%d}",
    }


def append_golden_cases(logs: Iterable[QuestionLog], *, path: Path) -> Appended:
    """Append the rows that make cases to the golden file (created if missing); rows already in it are skipped."""
    logs = list(logs)
    present = _ids_in(path)
    not_helpful = set(
        QuestionLog.objects.filter(pk__in=[log.pk for log in logs], ratings__helpful=False).values_list("pk", flat=True)
    )
    paths = chunk_source_paths({chunk for log in logs for chunk in cited_chunks(log)})
    cases, skipped = [], []
    for log in sorted(logs, key=lambda row: row.pk):
        kind = expected_kind(log, not_helpful=log.pk in not_helpful)
        if case_id(log) in present:
            skipped.append((log.pk, "already in the golden file"))
        elif kind is None:
            skipped.append((log.pk, _why_not(log, not_helpful=log.pk in not_helpful)))
        else:
            cases.append(golden_case(log, kind=kind, paths=paths))
    if cases:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a+", encoding="utf-8") as out:
            out.seek(0, 2)
            if out.tell() and not _ends_with_newline(path):
                out.write("\n")
            out.writelines(case_line(case) for case in cases)
    return Appended(path, tuple(case["id"] for case in cases), tuple(skipped))


def case_line(case: Mapping[str, Any]) -> str:
    """A case as one line of the file: JSON, readable (not ASCII-escaped) but for the characters that break lines."""
    return json.dumps(case, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def _why_not(log: QuestionLog, *, not_helpful: bool) -> str:
    if log.status == "answered" and not_helpful:
        return "answered but rated not helpful: write its expected kind by hand"
    return f"its answer is {log.status}, not answered or refused"


def _ids_in(path: Path) -> set[str]:
    """The ids of the cases already in the file (lines that are not cases are left for load_golden to report)."""
    if not path.exists():
        return set()
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            ids.add(data["id"])
    return ids


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as raw:
        raw.seek(-1, 2)
        return raw.read(1) == b"\n"
