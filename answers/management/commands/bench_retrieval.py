"""`manage.py bench_retrieval`: our BM25 index against rank-bm25 on the same synthetic tokens."""
import json

from django.core.management.base import BaseCommand, CommandParser

from answers.bench.retrieval import bench_retrieval


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # a benchmark needs neither URLs nor the database
    help = "Time index build and queries for our BM25 index and rank-bm25 on a synthetic Zipfian corpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--chunks", type=int, required=True, help="Number of synthetic chunks.")
        parser.add_argument("--queries", type=int, default=200, help="Number of queries (default 200).")
        parser.add_argument("--seed", type=int, default=13, help="Random seed (default 13).")
        parser.add_argument(
            "--rank-bm25-queries",
            type=int,
            default=None,
            help="Queries also run on rank-bm25 (default: all, or 50 above 20000 chunks).",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        result = bench_retrieval(
            chunks=options["chunks"],
            queries=options["queries"],
            seed=options["seed"],
            rank_bm25_queries=options["rank_bm25_queries"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"{result['chunks']} chunks, {result['vocabulary']} terms, {result['queries']} queries "
            f"({result['rank_bm25_queries']} also on rank-bm25)\n"
            f"build:  ours {result['ours_build_s']:.3f} s   rank-bm25 {result['rank_bm25_build_s']:.3f} s   "
            f"({result['build_speedup']}x)\n"
            f"query:  ours p50 {result['ours_p50_ms']:.3f} ms, p95 {result['ours_p95_ms']:.3f} ms   "
            f"rank-bm25 p50 {result['rank_bm25_p50_ms']:.1f} ms, p95 {result['rank_bm25_p95_ms']:.1f} ms   "
            f"({result['query_speedup']}x at p50)\n"
            f"memory: index {result['ours_index_mb']} MB ({result['ours_bytes_per_chunk']} bytes/chunk), "
            f"peak RSS {result['peak_rss_mb_after_ours']} MB after ours, {result['peak_rss_mb']} MB overall\n"
            f"top10_identical: {result['top10_identical']}"
        )
