"""manage.py evaluate --golden FILE [--corpus DIR] [--json OUT] [--report DIR] [--sweep] [--followups FILE]
[--replay FILE]: measure the answers (and the resolution of follow-up questions, and scripted model answers)."""
import functools
import json
from contextlib import nullcontext
from pathlib import Path
from typing import TypeVar

from django.core.management.base import CommandError, CommandParser

from answers.evaluation import followups as followup_table
from answers.evaluation.budgets import budget_table, observe_budgets, parse_budgets, table_lines
from answers.evaluation.corpus import CorpusError, load_corpus, throwaway_database
from answers.evaluation.golden import GoldenCase, GoldenError, load_golden, resolve_sources
from answers.evaluation.markdown import held_out_line
from answers.evaluation.metrics import ACTUAL_KINDS, summarise
from answers.evaluation.replay import ReplayCase, ReplayError, load_replay
from answers.evaluation.replay_metrics import REPLAY_FLOOR_KEYS, ReplayRun
from answers.evaluation.replay_report import HEADER as REPLAY_HEADER
from answers.evaluation.replay_report import outcome_line, replay_rows
from answers.evaluation.replay_run import run_replay
from answers.evaluation.report import Run, confusion_rows, metric_rows, sweep_tables, write_json, write_reports
from answers.evaluation.runner import evaluate_cases
from answers.evaluation.sweep import run_sweep
from answers.management.answering import AnsweringCommand
from answers.services import QuestionRejected, claude_settings, clean_question, pipeline_config
from corpus_admin.selectors import source_paths

# Each key present in a floor file switches its check on; the replay's need --replay.
FLOOR_KEYS = {
    "min_status_accuracy", "min_status_accuracy_with_facts", "max_unverified_delivered", "max_forbidden_delivered",
    *followup_table.FLOOR_KEYS, *REPLAY_FLOOR_KEYS,
}

Case = TypeVar("Case", GoldenCase, ReplayCase)


def _questions_accepted(path: str, cases: tuple[Case, ...]) -> tuple[Case, ...]:
    """The cases, once every question passes the site's own question check; the first that fails names its line."""
    for case in cases:
        try:
            clean_question(case.question)
        except QuestionRejected as error:
            raise CommandError(f"{path}, line {case.line}: {error}") from None
    return cases


class Command(AnsweringCommand):
    help = (
        "Ask every question of a golden file through the site's own entry point and report how often the right "
        "kind of reply came back, citation and fact quality, unverified sentences delivered and latency. With "
        "--corpus the documents go into a throwaway database; the site's data is never touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--golden", required=True, help="The golden file (JSONL, one case a line).")
        parser.add_argument("--corpus", help="Ingest this folder (recursively) into a throwaway database and ask it.")
        parser.add_argument("--json", dest="json_path", help="Write every metric and every case to this file.")
        parser.add_argument("--report", help="Write report.html, report.md and known_misses.md into this folder.")
        parser.add_argument(
            "--sweep", action="store_true",
            help="Re-decide every case over ranges of RAG_MIN_COVERAGE, RAG_MIN_SCORE, RAG_MIN_SENTENCE_COVERAGE and "
            "RAG_MIN_ANSWER_SCORE (tuning-part accuracy with facts beside each value, to set them on)"
            "(with a model generator, "
            "every value asks the model again).",
        )
        parser.add_argument("--min-status-accuracy", type=float, help="Exit 1 when status accuracy is under this.")
        parser.add_argument(
            "--fail-on-unverified", action="store_true", help="Exit 1 if any unverified sentence was delivered."
        )
        parser.add_argument(
            "--floor", help='JSON file like {"min_status_accuracy": 0.8, "max_unverified_delivered": 0}.'
        )
        parser.add_argument(
            "--followups",
            help="Also resolve the follow-up table (JSONL) and report it, and ask the golden set as one conversation "
            "per audience (each question after the ones before it) to show what the resolver changes there.",
        )
        parser.add_argument(
            "--replay",
            help="Also replay this file of scripted model answers (JSONL) through Claude's path against the local "
            "fake Anthropic server, and count the false sentences delivered by kind and the true ones dropped.",
        )
        parser.add_argument(
            "--budgets", help="Comma-separated context budgets (e.g. 300,500,700,1200): ask every case at each and "
            "print the blocks kept and dropped, the tokens used, and each case's smallest budget giving the largest's "
            "answer.",
        )

    def handle(self, *args, **options) -> None:
        cases = self._cases(options["golden"])
        floor = self._floor(options)
        replay_cases = self._replay_cases(options["replay"], floor)
        config = pipeline_config()
        corpus = options["corpus"]
        if corpus and not Path(corpus).is_dir():
            raise CommandError(f"{corpus}: no such folder")
        budgets = self._budgets(options["budgets"]) if options["budgets"] else ()
        load = sweep = replay = budget_answers = None
        with throwaway_database() if corpus else nullcontext():
            if corpus:
                try:
                    load = load_corpus(corpus)
                except CorpusError as error:
                    raise CommandError(str(error)) from None
                self._print_load(load)
            try:
                cases = resolve_sources(cases, paths=source_paths(), golden=options["golden"])
            except GoldenError as error:
                raise CommandError(str(error)) from None
            evaluate = functools.partial(evaluate_cases, make_generator=self.make_generator)
            results = evaluate(cases, config=config)
            if options["sweep"]:
                sweep = run_sweep(cases, config=config, baseline=results, evaluate=evaluate)
            if replay_cases:
                replay = run_replay(replay_cases, config=config, claude=claude_settings(), path=options["replay"])
            if budgets:
                budget_answers = observe_budgets(cases, budgets, config=config, make_generator=self.make_generator)
            followups = self._followups(options["followups"], config) if options["followups"] else None
            in_conversation = (followup_table.golden_in_conversation(cases, config=config,
                                                                     make_generator=self.make_generator)
                               if options["followups"] else None)
        run = Run(
            golden=options["golden"], corpus=corpus or "the site's database", config=config,
            metrics=summarise(results, k=config.top_k), results=results, load=load, sweep=sweep, replay=replay,
        )
        self._print_run(run)
        for line in followup_table.report_lines(followups) if followups is not None else ():
            self.stdout.write(line)
        if in_conversation is not None:
            for line in followup_table.conversation_lines(in_conversation, alone=run.metrics.status_accuracy,
                                                          k=config.top_k):
                self.stdout.write(line)
        if budget_answers is not None:
            self.stdout.write("\nContext budgets (RAG_CONTEXT_TOKENS):")
            for line in table_lines(budget_table(budget_answers)):
                self.stdout.write(line.rstrip())
        if options["json_path"]:
            self.stdout.write(f"JSON written to {write_json(options['json_path'], run)}")
        if options["report"]:
            written = write_reports(options["report"], run)
            self.stdout.write("Report written to " + ", ".join(str(path) for path in written))
        self._check(run, floor, followup_table.floor_failures(followups, floor) if followups is not None else [])

    def _budgets(self, text: str) -> tuple[int, ...]:
        try:
            return parse_budgets(text)
        except ValueError as error:
            raise CommandError(f"--budgets: {error}") from None

    def _cases(self, path: str) -> tuple[GoldenCase, ...]:
        try:
            cases = load_golden(path)
        except GoldenError as error:
            raise CommandError(str(error)) from None
        return _questions_accepted(path, cases)

    def _followups(self, path: str, config) -> tuple[followup_table.FollowupResult, ...]:
        try:
            cases = followup_table.load_followups(path)
        except followup_table.FollowupError as error:
            raise CommandError(str(error)) from None
        return followup_table.run_followups(cases, config=config, make_generator=self.make_generator)

    def _replay_cases(self, path: str | None, floor: dict[str, float]) -> tuple[ReplayCase, ...]:
        if path is None:
            named = sorted(set(floor) & REPLAY_FLOOR_KEYS)
            if named:
                raise CommandError(f"the floor bounds {', '.join(named)}, which need --replay FILE")
            return ()
        try:
            cases = load_replay(path)
        except ReplayError as error:
            raise CommandError(str(error)) from None
        return _questions_accepted(path, cases)

    def _floor(self, options: dict) -> dict[str, float]:
        floor: dict[str, float] = {}
        if options["floor"]:
            try:
                data = json.loads(Path(options["floor"]).read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise CommandError(f"{options['floor']}: not a readable JSON file ({error})") from None
            if not isinstance(data, dict) or not set(data) <= FLOOR_KEYS or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in data.values()
            ):
                raise CommandError(f"{options['floor']}: must map some of {', '.join(sorted(FLOOR_KEYS))} to numbers")
            floor.update(data)
        if options["min_status_accuracy"] is not None:
            floor["min_status_accuracy"] = options["min_status_accuracy"]
        if options["fail_on_unverified"]:
            floor["max_unverified_delivered"] = 0
        return floor

    def _print_load(self, load) -> None:
        self.stdout.write(
            f"Corpus: {len(load.ingested)} files ingested, {len(load.failed)} failed, {len(load.skipped)} skipped "
            "(unsupported format)."
        )
        for name, error in load.failed:
            self.stdout.write(self.style.WARNING(f"  failed: {name}: {error}"))

    def _print_run(self, run: Run) -> None:
        width = max(len(r.case.id) for r in run.results)
        for r in (r for r in run.results if not r.case.held_out):  # held-out cases are counted in their part only
            mark = "ok" if r.ok else "✗"
            self.stdout.write(
                f"{r.case.id:<{width}}  {r.case.expect:<11}  {r.actual:<11}  {mark:<2}  "
                f"facts {sum(r.facts_found)}/{len(r.facts_found)}  {r.latency_ms:6.1f} ms"
            )
            for text, reasons in r.unverified:
                self.stdout.write(self.style.ERROR(f"    unverified: {text} ({'; '.join(reasons)})"))
        self.stdout.write("")
        self._table(("metric", "value"), metric_rows(run.metrics))
        for name, metrics in run.parts.items():
            self.stdout.write(f"\n{name.capitalize()} part ({metrics.cases} cases):")
            self._table(("metric", "value"), metric_rows(metrics))
        self.stdout.write("")
        self._table(("expected \\ actual", *ACTUAL_KINDS), [(e, *row) for e, row in confusion_rows(run.metrics)])
        for sweep in sweep_tables(run.sweep):
            self.stdout.write(f"\nSweep of {sweep['title']}:")
            self._table(
                ("value", "status accuracy", "tuning with facts", "errors", "answered wrongly", "refused wrongly",
                 "unverified", "flips"),
                [(r["value"], r["accuracy"], r["tuning_with_facts"], r["errors"], r["answered_wrongly"],
                  r["refused_wrongly"], r["unverified"], r["flips"]) for r in sweep["rows"]],
            )
        misses = run.known_misses
        part = " of the tuning part" if run.parts else ""
        self.stdout.write(f"\nKnown misses{part} ({len(misses)}):" if misses else f"\nKnown misses{part}: none.")
        for miss in misses:
            self.stdout.write(
                f"  {miss.case_id}: expected {miss.expect}, got {miss.actual} ({miss.audience}) {miss.question}"
            )
        if run.parts:
            self.stdout.write(held_out_line(run.held_out_misses))
        if run.replay is not None:
            self._print_replay(run.replay)

    def _print_replay(self, replay: ReplayRun) -> None:
        self.stdout.write(
            f"\nReplay of {replay.path} ({replay.cases} cases, {len(replay.outcomes)} sentences judged) through "
            "Claude's path against the fake Anthropic server; delivered of sentences, per label:"
        )
        self._table(REPLAY_HEADER, replay_rows(replay))
        wrong = replay.wrong
        heading = f"\nReplay: wrong outcomes of dev ({len(wrong)}):" if wrong else "\nReplay: no wrong outcome in dev."
        self.stdout.write(heading)
        for outcome in wrong:
            self.stdout.write(f"  {outcome_line(outcome)}")
        self.stdout.write(f"Replay: held-out wrong outcomes: {replay.held_out_wrong} (counted, never named)")
        for problem in replay.problems:
            self.stdout.write(self.style.ERROR(f"  not judged: {problem}"))

    def _table(self, header: tuple, rows: list) -> None:
        cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
        for index, row in enumerate(cells):
            self.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
            if index == 0:
                self.stdout.write("  ".join("-" * width for width in widths))

    def _check(self, run: Run, floor: dict[str, float], failures: list[str]) -> None:
        """Fail the run on a figure the floor bounds, read over the tuning part (a held-out part is measured, never
        gated) or over every case when none is held out."""
        m = run.parts.get("tuning", run.metrics)
        if "min_status_accuracy" in floor and m.status_accuracy < floor["min_status_accuracy"]:
            minimum = floor["min_status_accuracy"]
            failures.append(f"status accuracy {m.status_accuracy:.3f} is under the floor {minimum}")
        if "min_status_accuracy_with_facts" in floor and (
            m.status_accuracy_with_facts < floor["min_status_accuracy_with_facts"]
        ):
            accuracy, minimum = m.status_accuracy_with_facts, floor["min_status_accuracy_with_facts"]
            failures.append(f"status accuracy with facts {accuracy:.3f} is under the floor {minimum}")
        if "max_unverified_delivered" in floor and m.unverified_delivered > floor["max_unverified_delivered"]:
            failures.append(f"{m.unverified_delivered} unverified sentences were delivered")
        if "max_forbidden_delivered" in floor and m.forbidden_delivered > floor["max_forbidden_delivered"]:
            failures.append(f"forbidden text was delivered {m.forbidden_delivered} times")
        failures += self._replay_failures(run.replay, floor)
        if failures:
            raise CommandError("; ".join(failures), returncode=1)

    def _replay_failures(self, replay: ReplayRun | None, floor: dict[str, float]) -> list[str]:
        """A replay with sentences it could not judge always fails: its figures would leave them out."""
        if replay is None:
            return []
        failures = []
        if replay.problems:
            failures.append(f"the replay could not judge {len(replay.problems)} of its items (see 'not judged')")
        values = replay.floor_values()
        for key in sorted(set(floor) & REPLAY_FLOOR_KEYS):
            value, bound = values[key], floor[key]
            if key.startswith("max_") and value > bound:
                failures.append(f"{key[4:]} is {value:g}, over the floor {bound:g}")
            if key.startswith("min_") and value < bound:
                failures.append(f"{key[4:]} is {value:.3f}, under the floor {bound:g}")
        return failures
