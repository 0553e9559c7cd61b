"""`manage.py bench_beir PATH`: ranking quality of BM25, dense and hybrid retrieval on a BEIR data set."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.beir import bench_beir_methods
from answers.pipeline.embed.model import embeddings_available, unavailable_reason
from answers.retrieval.backends import fusion_config

METHODS = ("bm25", "dense", "hybrid")


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # a benchmark needs neither URLs nor the database
    help = (
        "Index a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) in memory; print nDCG@10 and Recall@100 "
        "of BM25, dense (the embedding model) and hybrid (reciprocal-rank fusion of both) retrieval."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="BEIR data set folder, e.g. datasets/scifact.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument(
            "--methods", default=",".join(METHODS),
            help="Comma-separated: bm25, dense, hybrid (default all three; dense and hybrid need the model).",
        )
        parser.add_argument(
            "--weights", default="",
            help="Also run hybrid with these BM25 weights (comma-separated, e.g. 0.3,0.5,0.7).",
        )
        parser.add_argument(
            "--sentences", action="store_true",
            help="Score a document's dense side by the best of its whole text and its sentences, as the site's chunks.",
        )
        parser.add_argument("--split", default="test", help="The qrels file to score: qrels/<split>.tsv.")
        parser.add_argument(
            "--cache-dir", default=None,
            help="Where corpus vectors are kept between runs (default var/embeddings under the project).",
        )

    def handle(self, *args, **options) -> None:
        folder = Path(options["path"])
        required = ("corpus.jsonl", "queries.jsonl", f"qrels/{options['split']}.tsv")
        missing = [name for name in required if not (folder / name).is_file()]
        if missing:
            raise CommandError(f"{folder} is not a BEIR folder: missing {', '.join(missing)}")
        methods = [method.strip() for method in options["methods"].split(",") if method.strip()]
        if unknown := [method for method in methods if method not in METHODS]:
            raise CommandError(f"unknown method {', '.join(unknown)}; choose from {', '.join(METHODS)}")
        weights = [float(weight) for weight in options["weights"].split(",") if weight.strip()]
        if (weights or set(methods) - {"bm25"}) and not embeddings_available():
            raise CommandError(f"dense and hybrid need the embedding model: {unavailable_reason()}")
        cache = Path(options["cache_dir"]) if options["cache_dir"] else Path(settings.BASE_DIR) / "var" / "embeddings"
        result = bench_beir_methods(
            folder, methods=methods, weights=weights, cache_dir=cache, split=options["split"],
            sentences=options["sentences"], fusion=fusion_config(),
        )
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        lines = [
            f"{result['dataset']}: {result['documents']} documents, {result['queries']} {result['split']} queries, "
            f"dense rows per document: {result['dense_rows']}"
        ]
        for method, scores in result["methods"].items():
            lines.append(
                f"{method:<12} nDCG@10 {scores['ndcg_at_10']:.4f}   Recall@100 {scores['recall_at_100']:.4f}"
            )
        lines.append(
            f"{result['seconds']:.1f} s ({result['index_seconds']:.1f} s BM25 indexing, "
            f"{result['embed_seconds']:.1f} s embedding or reading cached vectors; model {result['model']})"
        )
        self.stdout.write("\n".join(lines))
