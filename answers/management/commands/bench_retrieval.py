"""`manage.py bench_retrieval`: our BM25 index against bm25s and rank-bm25 on the same synthetic tokens."""
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.retrieval import bench_retrieval


class Command(BaseCommand):
    requires_system_checks: list[str] = []  # a benchmark needs neither URLs nor the database
    help = (
        "Time index build and queries for our BM25 index, bm25s and rank-bm25 on a synthetic Zipfian corpus; "
        "fails unless every compared top 10 equals rank-bm25's, ids and scores."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--chunks", type=int, required=True, help="Number of synthetic chunks.")
        parser.add_argument("--queries", type=int, default=200, help="Number of queries (default 200).")
        parser.add_argument("--seed", type=int, default=13, help="Random seed (default 13).")
        parser.add_argument(
            "--rank-bm25-queries",
            type=int,
            default=None,
            help="Queries also run on rank-bm25 (default: all up to 20000 chunks, 50 up to 200000, then 20).",
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=3,
            help="Rounds over the queries for ours and bm25s; each query's time is its best round (default 3).",
        )
        parser.add_argument("--no-bm25s", action="store_true", help="Leave bm25s out.")
        parser.add_argument(
            "--no-kernel",
            action="store_true",
            help="Time our numpy path even when numba is installed (the fresh process imports no numba).",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        result = bench_retrieval(
            chunks=options["chunks"],
            queries=options["queries"],
            seed=options["seed"],
            rank_bm25_queries=options["rank_bm25_queries"],
            with_bm25s=not options["no_bm25s"],
            rounds=options["rounds"],
            compiled=not options["no_kernel"],
        )
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self.stdout.write(_text(result))
        if not result["top10_identical"]:
            raise CommandError(
                f"top 10 differs from rank-bm25 for {result['rank_bm25_queries'] - result['top10_identical_count']} "
                f"of {result['rank_bm25_queries']} queries"
            )


def _text(result: dict) -> str:
    lines = [
        f"{result['chunks']} chunks, {result['vocabulary']} terms, {result['postings']} postings, "
        f"{result['queries']} queries ({result['rank_bm25_queries']} also on rank-bm25)",
        f"build:  ours {result['ours_build_s']:.3f} s   rank-bm25 {result['rank_bm25_build_s']:.3f} s "
        f"({result['build_speedup']}x)",
        f"query:  ours p50 {result['ours_p50_ms']:.3f} ms, p95 {result['ours_p95_ms']:.3f} ms   "
        f"rank-bm25 p50 {result['rank_bm25_p50_ms']:.1f} ms, p95 {result['rank_bm25_p95_ms']:.1f} ms   "
        f"({result['query_speedup']}x at p50, {result['query_speedup_p95']}x at p95)",
    ]
    if "bm25s_p50_ms" in result:
        lines += [
            f"bm25s ({result['bm25s_variant']['method']}): build {result['bm25s_build_s']:.3f} s "
            f"({result['bm25s_build_ratio']}x ours), p50 {result['bm25s_p50_ms']:.3f} ms, "
            f"p95 {result['bm25s_p95_ms']:.3f} ms ({result['bm25s_query_ratio']}x ours at p50, "
            f"{result['bm25s_query_ratio_p95']}x at p95), {result['bm25s_bytes_per_chunk']} bytes/chunk; "
            f"top 10 overlap with ours {result['bm25s_top10_overlap']:.3f}, same order for "
            f"{result['bm25s_top10_same_order']} of {result['queries']}; its own "
            f"retrieve() p50 {result['bm25s_retrieve_p50_ms']:.3f} ms",
            f"bm25s overlap: {result['bm25s_top10_overlap_without_floored_term']} on the "
            f"{result['queries'] - result['bm25s_queries_with_floored_term']} queries without, "
            f"{result['bm25s_top10_overlap_with_floored_term']} on the {result['bm25s_queries_with_floored_term']} "
            f"with one of the {result['bm25s_floored_terms']} terms in over half of the chunks (rank-bm25 floors "
            "their idf at epsilon * mean idf, bm25s clamps it to 0)",
            "bm25s overlap per query: " + " ".join(f"{share:g}" for share in result["bm25s_top10_overlap_per_query"]),
        ]
    lines += [
        f"memory: index {result['ours_index_mb']} MB ({result['ours_bytes_per_chunk']} bytes/chunk by arrays, "
        f"{result['ours_rss_delta_bytes_per_chunk']} by RSS delta), peak RSS {result['peak_rss_mb']} MB",
        f"update: one source of {result['update_source_chunks']} chunks replaced in "
        f"{result['update_one_source_s']:.3f} s (a delta segment beside the main one; merging it in: "
        f"{result['merge_delta_s']:.3f} s)",
        f"cold start: saved index {result['saved_index_mb']} MB read in {result['cold_start_s']:.3f} s "
        f"({result['cold_start_rss_delta_bytes_per_chunk']} bytes/chunk RSS)",
        f"a fresh process: import {result['fresh_process_import_s']:.3f} s, "
        f"read {result['fresh_process_read_s']:.3f} s, "
        f"first query {result['fresh_process_first_query_s']:.3f} s, the first 20 queries "
        f"{result['fresh_process_queries_s']:.3f} s (compiled kernel: {result['compiled_kernel']})",
        f"top10_identical: {result['top10_identical']} ({result['top10_identical_count']} of "
        f"{result['rank_bm25_queries']} queries: ids and scores)",
    ]
    return "\n".join(lines)
