"""Retrieval benchmarks: ours against rank-bm25 on a synthetic corpus, and ranking quality on a BEIR data set.

Both run on throwaway in-memory indexes built straight from tokens or files: never the site's database.
"""
import gc
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from answers.pipeline.retrieve import kernel
from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.persist import read_index, write_index
from answers.pipeline.retrieve.update import merged, updated_index
from answers.pipeline.text.tokens import DEFAULT, TokenizerConfig, tokenize
from corpus_admin.synthetic import synthetic_corpus

PUBLIC = 0
SOURCE_CHUNKS = 100  # chunks of the source an update benchmark replaces (a long manual's worth)
T = TypeVar("T")


def peak_rss_mb() -> float:
    """The process's peak resident set size so far, in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_bytes() -> int:
    """The process's resident set size now (Linux /proc; 0 elsewhere), after a full collection."""
    gc.collect()
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


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


def _bm25s_search(retriever: Any, query: list[str], k: int) -> list[int]:
    """bm25s's top k for one pre-tokenized query: its public `get_scores`, then numpy's argpartition.

    That is bm25s at its fastest: its own `retrieve` adds per-call bookkeeping and its numpy top-k selection
    (`bm25s.selection.topk`) is slower than argpartition on a single query (see `_bm25s_retrieve`).
    """
    scores = retriever.get_scores(query)
    best = np.argpartition(-scores, k)[:k] if scores.size > k else np.arange(scores.size)
    best = best[np.argsort(-scores[best], kind="stable")]
    return [int(doc) for doc in best.tolist() if scores[doc] > 0]


def _bm25s_retrieve(retriever: Any, query: list[str], k: int) -> Any:
    """bm25s's public `retrieve` for one query, as its documentation shows it."""
    return retriever.retrieve([query], k=min(k, retriever.scores["num_docs"]), show_progress=False)


def default_rank_bm25_queries(chunks: int, queries: int) -> int:
    """How many queries rank-bm25 answers by default: all up to 20k chunks, 50 up to 200k, then 20 (it is slow)."""
    return min(queries, queries if chunks <= 20_000 else 50 if chunks <= 200_000 else 20)


def bench_retrieval(
    *,
    chunks: int,
    queries: int = 200,
    seed: int = 13,
    rank_bm25_queries: int | None = None,
    k: int = 10,
    with_bm25s: bool = True,
    store_dir: str | Path | None = None,
    rounds: int = 3,
    compiled: bool = True,
) -> dict:
    """Ours, bm25s and rank-bm25 on the same synthetic tokens, one after another in this process.

    Compares speed, memory and top k (identical ids and scores to rank-bm25; overlap with bm25s per query, whose
    BM25 variant differs on terms in more than half of the documents, see `_bm25s_variant`), then times an
    incremental update for one changed source and a cold start from the saved index (written under store_dir, a
    temporary folder by default). Ours and bm25s answer every query
    in each of `rounds` rounds and a query's time is its best round (on a shared machine, the others' jobs only
    ever add time); rank-bm25, a second or more a query, answers once. compiled False times our numpy path even
    when numba is installed.
    """
    was = kernel.AVAILABLE
    kernel.AVAILABLE = was and compiled
    try:
        return _bench_retrieval(chunks, queries, seed, rank_bm25_queries, k, with_bm25s, store_dir, rounds)
    finally:
        kernel.AVAILABLE = was


def _bench_retrieval(
    chunks: int,
    queries: int,
    seed: int,
    rank_bm25_queries: int | None,
    k: int,
    with_bm25s: bool,
    store_dir: str | Path | None,
    rounds: int,
) -> dict:
    """bench_retrieval's runs, on whichever path kernel.AVAILABLE selects."""
    from rank_bm25 import BM25Okapi

    corpus = synthetic_corpus(chunks=chunks, queries=queries, seed=seed)
    if rank_bm25_queries is None:
        rank_bm25_queries = default_rank_bm25_queries(chunks, queries)
    rank_bm25_queries = min(rank_bm25_queries, queries)
    result: dict[str, Any] = {"chunks": chunks, "queries": queries, "rank_bm25_queries": rank_bm25_queries,
                              "seed": seed}

    rss_before = rss_bytes()
    index, ours_build = _timed(Bm25Index.build, zip(corpus.chunk_ids, ["public"] * chunks, corpus.docs, strict=True))
    rss_index = rss_bytes() - rss_before
    position = {chunk_id: i for i, chunk_id in enumerate(corpus.chunk_ids)}
    ours_ms, ours_top = [math.inf] * len(corpus.queries), []
    for round_number in range(max(rounds, 1)):
        for i, query in enumerate(corpus.queries):
            hits, seconds = _timed(index.search, query, max_rank=PUBLIC, k=k)
            ours_ms[i] = min(ours_ms[i], seconds * 1000)
            if round_number == 0:
                ours_top.append([(position[hit.chunk_id], hit.score) for hit in hits])
    memory = index.memory_bytes()
    result.update(
        vocabulary=index.term_count,
        postings=int(index.post_docs.size),
        ours_build_s=round(ours_build, 3),
        ours_p50_ms=round(_percentile(ours_ms, 0.5), 4),
        ours_p95_ms=round(_percentile(ours_ms, 0.95), 4),
        ours_index_mb=round(memory / 2**20, 1),
        ours_bytes_per_chunk=round(memory / chunks) if chunks else 0,
        ours_rss_delta_bytes_per_chunk=round(rss_index / chunks) if chunks else 0,
        peak_rss_mb_after_ours=round(peak_rss_mb(), 1),
    )
    result.update(_update_and_cold_start(index, corpus, store_dir))
    del index

    if with_bm25s:
        result.update(_bench_bm25s(corpus, ours_top, k, rounds))

    reference, reference_build = _timed(BM25Okapi, corpus.docs)
    reference_ms, identical = [], 0
    # Only the first rank_bm25_queries queries are asked of rank-bm25 (it is slow on big corpora): zip stops there.
    for query, ours in zip(corpus.queries[:rank_bm25_queries], ours_top, strict=False):
        expected, seconds = _timed(_reference_search, reference, query, k)
        reference_ms.append(seconds * 1000)
        identical += ours == expected  # the same ids in the same order, and bit-identical scores
    del reference
    result.update(
        rank_bm25_build_s=round(reference_build, 3),
        rank_bm25_p50_ms=round(_percentile(reference_ms, 0.5), 3),
        rank_bm25_p95_ms=round(_percentile(reference_ms, 0.95), 3),
        top10_identical_count=identical,
        top10_identical=identical == rank_bm25_queries,
        peak_rss_mb=round(peak_rss_mb(), 1),
    )
    result["build_speedup"] = _ratio(reference_build, ours_build)
    result["query_speedup"] = _ratio(result["rank_bm25_p50_ms"], result["ours_p50_ms"])
    result["query_speedup_p95"] = _ratio(result["rank_bm25_p95_ms"], result["ours_p95_ms"])
    if with_bm25s:
        result["bm25s_query_ratio"] = _ratio(result["bm25s_p50_ms"], result["ours_p50_ms"])
        result["bm25s_query_ratio_p95"] = _ratio(result["bm25s_p95_ms"], result["ours_p95_ms"])
        result["bm25s_build_ratio"] = _ratio(result["bm25s_build_s"], result["ours_build_s"])
    return result


def _ratio(theirs: float, ours: float) -> float | None:
    return round(theirs / ours, 1) if ours else None


def _bm25s_variant() -> dict[str, Any]:
    """bm25s's closest variant to rank-bm25's BM25Okapi, and exactly where it differs.

    `method="atire"` has rank-bm25's tf part, tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgdl)), and
    `idf_method="robertson"` its idf, log((N - df + 0.5) / (df + 0.5)), with the same k1 and b. They differ in two
    ways: (1) for a term in more than half of the documents that idf is negative, and bm25s clamps it to 0 where
    rank-bm25 gives it the floor epsilon * mean idf (positive on any real corpus; no method of bm25s has that floor,
    nor a way to pass an idf), and (2) bm25s scores in float32 (its default, kept: its fastest). So on a query without
    such a term the top 10 agrees up to float32 near-ties, and on one with such a term it may not: the benchmark
    reports the overlap per query and for each kind apart, never identity.
    """
    return {"method": "atire", "idf_method": "robertson", "k1": 1.5, "b": 0.75}


def _bench_bm25s(corpus: Any, ours_top: list[list[tuple[int, float]]], k: int, rounds: int = 3) -> dict[str, Any]:
    import bm25s

    variant = _bm25s_variant()
    retriever = bm25s.BM25(**variant)
    rss_before = rss_bytes()
    _, build = _timed(retriever.index, corpus.docs, show_progress=False)  # our tokens, not bm25s's tokenizer
    rss_index = rss_bytes() - rss_before
    scores = retriever.scores
    memory = sum(scores[name].nbytes for name in ("data", "indices", "indptr"))
    floored = _floored_terms(corpus.docs)
    milliseconds, overlap, same = [math.inf] * len(corpus.queries), [], 0
    for _ in range(max(rounds, 1) - 1):
        for i, query in enumerate(corpus.queries):
            milliseconds[i] = min(milliseconds[i], _timed(_bm25s_search, retriever, query, k)[1] * 1000)
    for i, (query, ours) in enumerate(zip(corpus.queries, ours_top, strict=True)):
        theirs, seconds = _timed(_bm25s_search, retriever, query, k)
        milliseconds[i] = min(milliseconds[i], seconds * 1000)
        ours_ids = [doc for doc, _ in ours]
        overlap.append(len(set(ours_ids) & set(theirs)) / max(len(ours_ids), 1))
        same += ours_ids == theirs
    retrieve_ms = [_timed(_bm25s_retrieve, retriever, query, k)[1] * 1000 for query in corpus.queries[:20]]
    chunks = len(corpus.docs)
    with_floor = [share for share, query in zip(overlap, corpus.queries, strict=True) if floored.intersection(query)]
    without = [share for share, query in zip(overlap, corpus.queries, strict=True) if not floored.intersection(query)]
    return {
        "bm25s_variant": variant,
        "bm25s_retrieve_p50_ms": round(_percentile(retrieve_ms, 0.5), 4),
        "bm25s_build_s": round(build, 3),
        "bm25s_p50_ms": round(_percentile(milliseconds, 0.5), 4),
        "bm25s_p95_ms": round(_percentile(milliseconds, 0.95), 4),
        "bm25s_bytes_per_chunk": round(memory / chunks) if chunks else 0,
        "bm25s_rss_delta_bytes_per_chunk": round(rss_index / chunks) if chunks else 0,
        "bm25s_top10_overlap": round(statistics.fmean(overlap), 4) if overlap else 0.0,
        "bm25s_top10_same_order": same,
        "bm25s_top10_overlap_per_query": [round(share, 2) for share in overlap],
        "bm25s_floored_terms": len(floored),
        "bm25s_queries_with_floored_term": len(with_floor),
        "bm25s_top10_overlap_with_floored_term": round(statistics.fmean(with_floor), 4) if with_floor else None,
        "bm25s_top10_overlap_without_floored_term": round(statistics.fmean(without), 4) if without else None,
    }


def _floored_terms(docs: list[list[str]]) -> set[str]:
    """The terms in more than half of the documents: negative idf, floored by rank-bm25 and clamped to 0 by bm25s."""
    df: dict[str, int] = {}
    for tokens in docs:
        for term in set(tokens):
            df[term] = df.get(term, 0) + 1
    return {term for term, count in df.items() if 2 * count > len(docs)}


def _update_and_cold_start(index: Bm25Index, corpus: Any, store_dir: str | Path | None) -> dict[str, Any]:
    """Time an update for one changed source (its 100 chunks replaced) and a cold start from the saved index."""
    changed = corpus.chunk_ids[-min(SOURCE_CHUNKS, len(corpus.chunk_ids)) :]
    replacement = synthetic_corpus(chunks=len(changed), queries=0, seed=corpus_seed_for_update(len(changed)))
    added = [(f"{chunk_id}-v2", "public", tokens) for chunk_id, tokens in zip(changed, replacement.docs, strict=True)]
    updated, update_s = _timed(updated_index, index, removed=changed, added=added)
    assert len(updated) == len(corpus.chunk_ids), "the update lost or duplicated chunks"
    one, merge_s = _timed(merged, updated)  # what an update past MERGE_FROM chunks costs instead
    for query in corpus.queries[:20]:  # the delta segment answers as the segment it merges into
        assert updated.search(query, max_rank=PUBLIC, k=10) == one.search(query, max_rank=PUBLIC, k=10)
    del updated, one
    with tempfile.TemporaryDirectory(dir=store_dir) as folder:
        path = Path(folder) / "index.npz"
        _, write_s = _timed(write_index, index, path)
        size = path.stat().st_size
        rss_before = rss_bytes()
        loaded, load_s = _timed(read_index, path)
        rss_loaded = rss_bytes() - rss_before
        for query in corpus.queries[:20]:  # the loaded index answers as the built one
            assert loaded.search(query, max_rank=PUBLIC, k=10) == index.search(query, max_rank=PUBLIC, k=10)
        del loaded
        fresh = _fresh_process_start(path, corpus.queries[:20])
    chunks = max(len(corpus.chunk_ids), 1)
    return {
        "update_one_source_s": round(update_s, 3),
        "update_source_chunks": len(changed),
        "merge_delta_s": round(merge_s, 3),
        "saved_index_mb": round(size / 2**20, 1),
        "save_s": round(write_s, 3),
        "cold_start_s": round(load_s, 3),
        "cold_start_rss_delta_bytes_per_chunk": round(rss_loaded / chunks),
        **fresh,
    }


def _fresh_process_start(path: Path, queries: list[list[str]]) -> dict[str, Any]:
    """A worker's cold start in a new process (`answers.bench.fresh_start`): imports, the index's read and its
    first queries."""
    done = subprocess.run(
        [sys.executable, "-m", "answers.bench.fresh_start", str(path), json.dumps(queries)]
        + ([] if kernel.AVAILABLE else ["--no-kernel"]),
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def corpus_seed_for_update(chunks: int) -> int:
    """The seed of the replacement text of the changed source: any seed other than the corpus's."""
    return 1_000_003 + chunks
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
