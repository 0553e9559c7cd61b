"""`manage.py bench_verify`: verification cost per sentence over a corpus's chunks, in a throwaway database."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.verify import bench_verify
from answers.evaluation.corpus import CorpusError, load_corpus, throwaway_database
from answers.services import pipeline_config
from corpus_admin.selectors import chunk_records

DEMO = Path("corpus_admin/demo/documents")


class Command(BaseCommand):
    help = (
        "Time the verifier on sentences written from each chunk of a corpus (true, and false by number, name and "
        "negation), cited among five blocks; the corpus goes into a throwaway database, the site's is never touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--corpus", default=str(DEMO), help=f"Folder to ingest (default {DEMO}).")
        parser.add_argument("--rounds", type=int, default=3, help="Times over the corpus; the best is kept (3).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        corpus = options["corpus"]
        config = pipeline_config()
        with throwaway_database():
            try:
                load_corpus(corpus)
            except CorpusError as error:
                raise CommandError(str(error)) from None
            records = list(chunk_records())
        runs = [bench_verify(records, config=config) for _ in range(max(1, options["rounds"]))]
        result = min(runs, key=lambda run: run["p95_ms"])
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['sentences']} sentences over {result['chunks']} chunks ({result['shown']} shown): "
            f"p50 {result['p50_ms']:.3f} ms, p95 {result['p95_ms']:.3f} ms, p99 {result['p99_ms']:.3f} ms, "
            f"max {result['max_ms']:.3f} ms per sentence; CPU time p50 {result['cpu_p50_ms']:.3f} ms, "
            f"p95 {result['cpu_p95_ms']:.3f} ms (best p95 of {len(runs)} rounds)"
        )
