"""`manage.py bench_reader`: the extractive reader's CPU time per question over a golden set, in a throwaway
database."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.reader import bench_reader, reader_cases
from answers.evaluation.corpus import CorpusError, load_corpus, throwaway_database
from answers.evaluation.golden import GoldenError, load_golden
from answers.retrieval.backends import retriever_for
from answers.services import pipeline_config

DEMO = Path("corpus_admin/demo/documents")
DEMO_GOLDEN = Path("answers/evaluation/golden/demo.jsonl")


class Command(BaseCommand):
    help = (
        "Time the extractive reader alone (answer units, scores, choice) on each golden question's assembled blocks; "
        "CPU milliseconds per question. The corpus goes into a throwaway database, the site's is never touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", default=str(DEMO), help=f"Folder to ingest (default {DEMO}).")
        parser.add_argument("--golden", default=str(DEMO_GOLDEN), help=f"Questions (default {DEMO_GOLDEN}).")
        parser.add_argument("--rounds", type=int, default=5, help="Times over the questions; the best p95 is kept (5).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        try:
            golden = load_golden(options["golden"])
        except GoldenError as error:
            raise CommandError(str(error)) from None
        config = pipeline_config()
        with throwaway_database():
            try:
                load_corpus(options["corpus"])
            except CorpusError as error:
                raise CommandError(str(error)) from None
            cases = reader_cases(
                [(case.question, case.audiences) for case in golden],
                search=lambda terms, audiences: retriever_for(audiences).search(terms, k=config.top_k),
                config=config,
            )
        runs = [bench_reader(cases, config=config) for _ in range(max(1, options["rounds"]))]
        result = min(runs, key=lambda run: run["p95_ms"])
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"reader: {result['questions']} questions ({result['answered']} answered, {result['blocks_mean']} blocks "
            f"each on average): p50 {result['p50_ms']:.3f} ms, p95 {result['p95_ms']:.3f} ms, p99 "
            f"{result['p99_ms']:.3f} ms, max {result['max_ms']:.3f} ms CPU per question "
            f"(best p95 of {len(runs)} rounds)"
        )
