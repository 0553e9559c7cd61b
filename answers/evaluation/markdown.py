"""report.md and known_misses.md: the report's tables as Markdown, every cell escaped so text shows literally."""
import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from answers.evaluation.sweep import KnownMiss, misses_by_retrieval

_SPECIAL = re.compile(r"([\\`*_\[\]|#~])")


def md_cell(value: object) -> str:
    """A table cell that shows the text as written: HTML and Markdown syntax escaped, one line."""
    text = " ".join(str(value).split())
    return _SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def md_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """A Markdown table, every cell escaped."""
    lines = ["| " + " | ".join(md_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(md_cell(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def report_markdown(context: dict[str, Any]) -> str:
    """The whole report as Markdown."""
    lines = [
        "# rag_site evaluation",
        "",
        f"Golden file: {md_cell(context['golden'])}; corpus: {md_cell(context['corpus'])}; {context['generated']}.",
        "",
    ]
    load = context["load"]
    if load is not None:
        lines += [f"Ingested {len(load.ingested)} files, {len(load.failed)} failed, {len(load.skipped)} skipped.", ""]
        failed = [f"- failed: {md_cell(name)}: {md_cell(error)}" for name, error in load.failed]
        lines += failed + ([""] if failed else [])
    lines += ["## Thresholds", ""] + md_table(("setting", "value"), context["config"])
    lines += ["## Overall", ""] + md_table(("metric", "value"), context["metrics"])
    for name, rows in context.get("parts", ()):
        lines += [f"## {md_cell(name.capitalize())} part", ""] + md_table(("metric", "value"), rows)
    lines += ["## Confusion matrix (rows: expected, columns: actual)", ""]
    lines += md_table(("expected", *context["kinds"]), ((kind, *counts) for kind, counts in context["confusion"]))
    lines += ["## Cases", ""]
    lines += md_table(
        ("id", "audience", "expected", "actual", "ok", "facts", "expected source", "citations", "cited", "latency",
         "question", "answer"),
        (
            (c["id"], c["audience"], c["expected"], c["actual"], "ok" if c["ok"] else "✗", c["facts"],
             c["retrieval"], c["citations"], c["cited"], c["latency"], c["question"], c["answer"])
            for c in context["cases"]
        ),
    )
    unverified = [(c["id"], text) for c in context["cases"] for text in c["unverified"]]
    if unverified:
        lines += ["## Unverified sentences delivered", ""] + md_table(("id", "sentence and reasons"), unverified)
    for sweep in context["sweeps"]:
        lines += [f"## Sweep of {sweep['title']}", ""]
        lines += md_table(
            ("value", "status accuracy", "errors", "answered wrongly", "refused wrongly", "unverified", "flips",
             "errors (ids)"),
            (
                (r["value"], r["accuracy"], r["errors"], r["answered_wrongly"], r["refused_wrongly"],
                 r["unverified"], r["flips"], r["error_ids"])
                for r in sweep["rows"]
            ),
        )
    lines += ["## Known misses", ""] + _misses(context["known_misses"], held_out=context["held_out_misses"])
    if context.get("replay"):
        lines += _replay(context["replay"])
    return "\n".join(lines)


def _replay(replay: dict[str, Any]) -> list[str]:
    lines = ["## Replay of scripted model answers", "", f"Replay file: {md_cell(replay['file'])}.", ""]
    lines += md_table(replay["header"], replay["rows"])
    lines += ["### Wrong outcomes (a false sentence delivered, a true one dropped)", ""]
    lines += [f"- {md_cell(line)}" for line in replay["wrong"]] or ["None."]
    if replay["problems"]:
        lines += ["", "### Sentences that could not be judged", ""] + [f"- {md_cell(p)}" for p in replay["problems"]]
    return lines + [""]


def known_misses_markdown(misses: Sequence[KnownMiss], *, golden: str, held_out: tuple[int, int] = (0, 0)) -> str:
    """The tuning cases the configured thresholds get wrong, expected against actual; held-out misses counted."""
    header = ["# Known misses", "", f"Cases of {md_cell(golden)} whose reply is not of the expected kind or lacks an"
              " expected fact; *expected source*: where the case's source stood for the reader (not retrieved,"
              " retrieved but not issued as a block, issued without the passage holding the facts, or issued: a"
              " reader miss).", ""]
    return "\n".join(header + _misses(misses, held_out=held_out))


def held_out_line(held_out: tuple[int, int]) -> str:
    """The held-out part's misses as a count: which ones is never shown (they are not tuned on)."""
    missed, cases = held_out
    return f"Held-out part: {missed} of {cases} cases missed (counted, not listed: the held-out part is not tuned on)."


def _misses(misses: Sequence[KnownMiss], *, held_out: tuple[int, int]) -> list[str]:
    lines = [held_out_line(held_out), ""] if held_out[1] else []
    if not misses:
        return ["None.", ""] + lines
    split = ", ".join(f"{state} {count}" for state, count in misses_by_retrieval(misses).items())
    return lines + [f"Misses by expected source: {split}.", ""] + md_table(
        ("id", "audience", "expected", "actual", "facts", "expected source", "question"),
        ((m.case_id, m.audience, m.expect, m.actual, m.facts, m.retrieval or "none listed", m.question)
         for m in misses),
    )
