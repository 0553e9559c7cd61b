"""`manage.py bench_hybrid`: the CPU a question's hybrid retrieval adds over BM25, on the corpus in the database."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.hybrid import bench_hybrid, golden_questions
from answers.pipeline.embed.model import embeddings_available, unavailable_reason
from answers.retrieval.backends import fusion_config
from answers.retrieval.holder import refresh_now


class Command(BaseCommand):
    help = (
        "Time BM25 alone and hybrid retrieval (question embedding + dense search + fusion) for each golden question "
        "over the served corpus (e.g. after load_demo with RAG_EMBEDDINGS on); print p50 and p95 CPU ms."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--golden", default=str(Path(settings.BASE_DIR) / "answers/evaluation/golden/demo.jsonl"),
            help="JSONL whose 'question' fields are timed (default the demo golden set).",
        )
        parser.add_argument("--rounds", type=int, default=3, help="Runs per question; the fastest counts.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        if not embeddings_available():
            raise CommandError(f"hybrid retrieval needs the embedding model: {unavailable_reason()}")
        try:
            result = bench_hybrid(
                refresh_now(), golden_questions(Path(options["golden"])), rounds=options["rounds"],
                config=fusion_config(),
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['questions']} questions, {result['chunks']} chunks ({result['dense_rows']} vectors), CPU ms:\n"
            f"BM25 alone  p50 {result['bm25_ms_p50']:.2f}  p95 {result['bm25_ms_p95']:.2f}\n"
            f"hybrid      p50 {result['hybrid_ms_p50']:.2f}  p95 {result['hybrid_ms_p95']:.2f}\n"
            f"added       p50 {result['added_ms_p50']:.2f}  p95 {result['added_ms_p95']:.2f}"
        )
