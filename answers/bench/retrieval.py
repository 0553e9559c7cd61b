"""Retrieval benchmarks: ours against rank-bm25 on a synthetic corpus, and ranking quality on a BEIR data set.

Both run on throwaway in-memory indexes built straight from tokens or files: never the site's database.
"""
import json
import math
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.text.tokens import DEFAULT, TokenizerConfig, tokenize
from corpus_admin.synthetic import synthetic_corpus

PUBLIC = 0
T = TypeVar("T")


def peak_rss_mb() -> float:
    """The process's peak resident set size so far, in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _timed(function: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """function(*args, **kwargs) and the seconds it took (arguments bound now: no closure over loop variables)."""
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start


def _percentile(values: list[float], share: float) -> float:
    return float(np.percentile(values, share * 100)) if values else float("nan")


def _reference_search(reference: Any, query: list[str], k: int) -> list[tuple[int, float]]:
    """rank-bm25's top k for one query (see _reference_top)."""
    return _reference_top(reference.get_scores(query), k)


def _reference_top(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """rank-bm25's top k under our rules: non-zero scores, best first, ties by document order (chunk id)."""
    candidates = np.flatnonzero(scores)
    order = np.lexsort((candidates, -scores[candidates]))[:k]
    return [(int(candidates[j]), float(scores[candidates[j]])) for j in order]


def bench_retrieval(
    *, chunks: int, queries: int = 200, seed: int = 13, rank_bm25_queries: int | None = None, k: int = 10
) -> dict:
    """Build and query our index and rank-bm25's on the same synthetic tokens; compare speed and top-k."""
    from rank_bm25 import BM25Okapi

    corpus = synthetic_corpus(chunks=chunks, queries=queries, seed=seed)
    if rank_bm25_queries is None:
        rank_bm25_queries = queries if chunks <= 20_000 else min(queries, 50)
    rank_bm25_queries = min(rank_bm25_queries, queries)

    index, ours_build = _timed(Bm25Index.build, zip(corpus.chunk_ids, ["public"] * chunks, corpus.docs, strict=True))
    rss_after_ours = peak_rss_mb()
    position = {chunk_id: i for i, chunk_id in enumerate(corpus.chunk_ids)}
    ours_ms, ours_top = [], []
    for query in corpus.queries:
        hits, seconds = _timed(index.search, query, max_rank=PUBLIC, k=k)
        ours_ms.append(seconds * 1000)
        ours_top.append([(position[hit.chunk_id], hit.score) for hit in hits])

    reference, reference_build = _timed(BM25Okapi, corpus.docs)
    reference_ms, identical = [], True
    # Only the first rank_bm25_queries queries are asked of rank-bm25 (it is slow on big corpora): zip stops there.
    for query, ours in zip(corpus.queries[:rank_bm25_queries], ours_top, strict=False):
        expected, seconds = _timed(_reference_search, reference, query, k)
        reference_ms.append(seconds * 1000)
        identical = identical and _same_top(ours, expected)
    del reference

    ours_p50, reference_p50 = _percentile(ours_ms, 0.5), _percentile(reference_ms, 0.5)
    memory = index.memory_bytes()
    return {
        "chunks": chunks,
        "queries": queries,
        "rank_bm25_queries": rank_bm25_queries,
        "seed": seed,
        "vocabulary": index.term_count,
        "ours_build_s": round(ours_build, 3),
        "rank_bm25_build_s": round(reference_build, 3),
        "build_speedup": round(reference_build / ours_build, 2) if ours_build else None,
        "ours_p50_ms": round(ours_p50, 4),
        "ours_p95_ms": round(_percentile(ours_ms, 0.95), 4),
        "rank_bm25_p50_ms": round(reference_p50, 3),
        "rank_bm25_p95_ms": round(_percentile(reference_ms, 0.95), 3),
        "query_speedup": round(reference_p50 / ours_p50, 1) if ours_p50 else None,
        "ours_index_mb": round(memory / 2**20, 1),
        "ours_bytes_per_chunk": round(memory / chunks) if chunks else 0,
        "peak_rss_mb_after_ours": round(rss_after_ours, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "top10_identical": identical,
    }


def _same_top(ours: list[tuple[int, float]], expected: list[tuple[int, float]]) -> bool:
    if [doc for doc, _ in ours] != [doc for doc, _ in expected]:
        return False
    return all(math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0) for (_, a), (_, b) in zip(ours, expected, strict=True))


@dataclass(frozen=True)
class BeirDataset:
    """A BEIR folder's corpus texts, test queries and graded relevance judgements."""

    corpus: dict[str, str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load_beir(path: str | Path, *, split: str = "test") -> BeirDataset:
    """Read corpus.jsonl (title + text), the queries judged in qrels/<split>.tsv, and those judgements."""
    folder = Path(path)
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels" / f"{split}.tsv", encoding="utf-8") as handle:
        for line_number, line in enumerate(handle):
            fields = line.rstrip("\n").split("\t")
            if line_number == 0 and not fields[-1].lstrip("-").isdigit():
                continue  # header
            if len(fields) >= 3:
                qrels.setdefault(fields[0], {})[fields[1]] = int(fields[2])
    corpus = {}
    for row in _jsonl(folder / "corpus.jsonl"):
        corpus[str(row["_id"])] = f"{row.get('title') or ''} {row.get('text') or ''}"
    queries = {str(row["_id"]): row["text"] for row in _jsonl(folder / "queries.jsonl") if str(row["_id"]) in qrels}
    return BeirDataset(corpus=corpus, queries=queries, qrels=qrels)


def _jsonl(path: Path):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def ndcg_at(ranked: list[str], judged: dict[str, int], k: int = 10) -> float:
    """nDCG@k with gain = graded relevance and a log2(rank + 1) discount; the ideal ranking comes from the qrels."""
    dcg = sum(judged.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted((rel for rel in judged.values() if rel > 0), reverse=True)[:k]
    idcg = sum(rel / math.log2(i + 2) for i, rel in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], judged: dict[str, int], k: int = 100) -> float:
    """Share of the relevant documents (relevance > 0) found in the first k."""
    relevant = {doc for doc, rel in judged.items() if rel > 0}
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def bench_beir(path: str | Path, *, config: TokenizerConfig = DEFAULT) -> dict:
    """Index a BEIR corpus with the shared tokenizer and score its test queries: nDCG@10 and Recall@100."""
    start = time.perf_counter()
    data = load_beir(path)
    index = Bm25Index.build((doc_id, "public", tokenize(text, config)) for doc_id, text in data.corpus.items())
    indexed = time.perf_counter()
    ndcgs, recalls = [], []
    for query_id, judged in data.qrels.items():
        text = data.queries.get(query_id)
        hits = index.search(tokenize(text, config), max_rank=PUBLIC, k=100) if text is not None else []
        ranked = [hit.chunk_id for hit in hits if hit.chunk_id != query_id]  # BEIR ignores a query's own id
        ndcgs.append(ndcg_at(ranked, judged, 10))
        recalls.append(recall_at(ranked, judged, 100))
    finished = time.perf_counter()
    return {
        "dataset": Path(path).name,
        "documents": len(data.corpus),
        "queries": len(ndcgs),
        "ndcg_at_10": round(statistics.fmean(ndcgs), 4) if ndcgs else 0.0,
        "recall_at_100": round(statistics.fmean(recalls), 4) if recalls else 0.0,
        "index_seconds": round(indexed - start, 3),
        "seconds": round(finished - start, 3),
    }
