"""What hybrid retrieval adds to a question's CPU time over BM25 alone, on the corpus in the database."""
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from answers.pipeline.embed.model import embed_texts
from answers.pipeline.records import AUDIENCE_RANK
from answers.pipeline.retrieve.hybrid import PLAIN_RRF, FusionConfig, fuse_rankings
from answers.pipeline.text.questions import search_terms
from answers.retrieval.holder import IndexSnapshot


def golden_questions(path: Path) -> list[str]:
    """The questions of a golden JSONL file, in order."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line)["question"] for line in handle if line.strip()]


def bench_hybrid(
    snapshot: IndexSnapshot,
    questions: Sequence[str],
    *,
    k: int = 8,
    rounds: int = 3,
    config: FusionConfig = PLAIN_RRF,
) -> dict:
    """Per question, CPU seconds of BM25 alone and of hybrid (embedding the question afresh, dense search, fusion).

    CPU time of this thread (`time.thread_time`), so other processes on the machine do not count; the best of
    `rounds` runs of each question, as a timing benchmark does. Public tier.
    """
    if snapshot.dense is None:
        raise ValueError("the index has no chunk vectors: ingest with RAG_EMBEDDINGS on and the model installed")
    tier = AUDIENCE_RANK["public"]
    depth = max(k, config.depth)
    embed_texts(["warm up"])  # the first run loads the model
    lexical_s, hybrid_s = [], []
    for question in questions:
        terms = search_terms(question, snapshot.tokenizer)
        best_lexical = best_hybrid = float("inf")
        for _ in range(rounds):
            start = time.thread_time()
            snapshot.bm25.search(terms, max_rank=tier, k=k)
            middle = time.thread_time()
            vector = embed_texts([question])[0]
            lexical = snapshot.bm25.search(terms, max_rank=tier, k=depth)
            dense = snapshot.dense.search(vector, max_rank=tier, k=depth)
            fuse_rankings(lexical, dense, k=k, config=config)
            end = time.thread_time()
            best_lexical, best_hybrid = min(best_lexical, middle - start), min(best_hybrid, end - middle)
        lexical_s.append(best_lexical)
        hybrid_s.append(best_hybrid)
    added = [h - b for h, b in zip(hybrid_s, lexical_s, strict=True)]
    return {
        "questions": len(questions),
        "chunks": len(snapshot.records),
        "dense_rows": int(snapshot.dense.vectors.shape[0]),
        "bm25_ms_p50": _ms(lexical_s, 0.5),
        "bm25_ms_p95": _ms(lexical_s, 0.95),
        "hybrid_ms_p50": _ms(hybrid_s, 0.5),
        "hybrid_ms_p95": _ms(hybrid_s, 0.95),
        "added_ms_p50": _ms(added, 0.5),
        "added_ms_p95": _ms(added, 0.95),
    }


def _ms(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if len(ordered) < 2:
        return round(1000 * (ordered[0] if ordered else 0.0), 2)
    return round(1000 * statistics.quantiles(ordered, n=100, method="inclusive")[round(share * 100) - 1], 2)
