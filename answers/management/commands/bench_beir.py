"""`manage.py bench_beir PATH`: ranking quality of our BM25 and tokenizer on a BEIR data set."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.retrieval import bench_beir


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # a benchmark needs neither URLs nor the database
    help = "Index a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) in memory; print nDCG@10, Recall@100."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="BEIR data set folder, e.g. datasets/scifact.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        folder = Path(options["path"])
        required = ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv")
        missing = [name for name in required if not (folder / name).is_file()]
        if missing:
            raise CommandError(f"{folder} is not a BEIR folder: missing {', '.join(missing)}")
        result = bench_beir(folder)
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['dataset']}: {result['documents']} documents, {result['queries']} test queries\n"
            f"nDCG@10 {result['ndcg_at_10']:.4f}   Recall@100 {result['recall_at_100']:.4f}   "
            f"{result['seconds']:.1f} s ({result['index_seconds']:.1f} s indexing)"
        )
