"""BEIR ranking quality of BM25, dense and hybrid retrieval (`manage.py bench_beir`): nDCG@10 and Recall@100."""
import dataclasses
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from answers.bench.retrieval import PUBLIC, load_beir, ndcg_at, recall_at
from answers.pipeline.embed.cache import cached_embeddings
from answers.pipeline.embed.model import MODEL_ID, embed_texts
from answers.pipeline.retrieve.bm25 import Bm25Index, Hit
from answers.pipeline.retrieve.dense import DenseIndex
from answers.pipeline.retrieve.hybrid import PLAIN_RRF, FusionConfig, fuse_rankings
from answers.pipeline.text.sentences import split_sentences
from answers.pipeline.text.tokens import DEFAULT, TokenizerConfig, tokenize

DEPTH = 100  # each side's candidates: Recall@100 needs a fused top 100


def bench_beir_methods(
    path: str | Path,
    *,
    methods: Sequence[str] = ("bm25", "dense", "hybrid"),
    cache_dir: Path | None = None,
    weights: Sequence[float] = (),
    config: TokenizerConfig = DEFAULT,
    embed: Callable[[list[str]], np.ndarray] = embed_texts,
    split: str = "test",
    sentences: bool = False,
    fusion: FusionConfig = PLAIN_RRF,
) -> dict:
    """Score the split's queries with each method; `weights` adds hybrid runs with those BM25 weights.

    With `sentences`, a document's dense score is the best of its whole text and each of its sentences, as the
    site's chunks score; without, its whole text alone. `fusion` is the site's (depth raised to DEPTH).
    """
    start = time.perf_counter()
    data = load_beir(path, split=split)
    ids = list(data.corpus)
    bm25 = Bm25Index.build((doc_id, "public", tokenize(text, config)) for doc_id, text in data.corpus.items())
    indexed = time.perf_counter()
    query_ids = [query_id for query_id in data.qrels if query_id in data.queries]
    lexical = {q: bm25.search(tokenize(data.queries[q], config), max_rank=PUBLIC, k=DEPTH) for q in query_ids}
    dense: dict[str, list[Hit]] = {}
    embed_seconds = 0.0
    if any(method != "bm25" for method in methods) or weights:
        folder = (cache_dir or Path("var/embeddings")) / f"{Path(path).name}-{MODEL_ID}"
        embedding = time.perf_counter()
        vectors = cached_embeddings([data.corpus[i] for i in ids], folder, embed=embed)
        questions = cached_embeddings([data.queries[q] for q in query_ids], folder / "queries", embed=embed)
        rows: dict[str, np.ndarray] = {doc_id: vector[None, :] for doc_id, vector in zip(ids, vectors, strict=True)}
        if sentences:
            by_document = {doc_id: document_sentences(data.corpus[doc_id]) for doc_id in ids}
            unique = sorted({sentence for listed in by_document.values() for sentence in listed})
            found = dict(zip(unique, cached_embeddings(unique, folder / "sentences", embed=embed), strict=True))
            rows = {
                doc_id: np.vstack([rows[doc_id], *(found[sentence][None, :] for sentence in by_document[doc_id])])
                for doc_id in ids
            }
        embed_seconds = time.perf_counter() - embedding
        index = DenseIndex.build((doc_id, "public", matrix) for doc_id, matrix in rows.items())
        dense = {q: index.search(v, max_rank=PUBLIC, k=DEPTH) for q, v in zip(query_ids, questions, strict=True)}
    runs: dict[str, Callable[[str], list[Hit]]] = {"bm25": lexical.__getitem__, "dense": dense.__getitem__}
    fused = dataclasses.replace(fusion, depth=DEPTH)
    runs["hybrid"] = lambda q: fuse_rankings(lexical[q], dense[q], k=DEPTH, config=fused)
    results = {method: _score(runs[method], query_ids, data.qrels) for method in methods}
    for weight in weights:
        weighting = dataclasses.replace(fused, bm25_weight=weight)

        def weighted(query_id: str, weighting: FusionConfig = weighting) -> list[Hit]:
            return fuse_rankings(lexical[query_id], dense[query_id], k=DEPTH, config=weighting)

        results[f"hybrid_w{weight:g}"] = _score(weighted, query_ids, data.qrels)
    first = results[methods[0]] if methods else {}
    return {
        "dataset": Path(path).name,
        "split": split,
        "documents": len(data.corpus),
        "queries": len(query_ids),
        "model": MODEL_ID,
        "dense_rows": "document and sentences" if sentences else "document",
        **first,  # the first method's figures under the plain names, as before there were several
        **{f"{method}_{figure}": value for method, scores in results.items() for figure, value in scores.items()},
        "methods": results,
        "index_seconds": round(indexed - start, 3),
        "embed_seconds": round(embed_seconds, 3),
        "seconds": round(time.perf_counter() - start, 3),
    }


def document_sentences(text: str) -> list[str]:
    """A BEIR document's sentences as the site's text model splits prose, whitespace collapsed."""
    return [" ".join(sentence.split()) for sentence in split_sentences(text) if sentence.strip()]


def _score(run: Callable[[str], list[Hit]], query_ids: list[str], qrels: dict[str, dict[str, int]]) -> dict:
    ndcgs, recalls = [], []
    for query_id in query_ids:
        ranked = [hit.chunk_id for hit in run(query_id) if hit.chunk_id != query_id]  # BEIR ignores a query's own id
        ndcgs.append(ndcg_at(ranked, qrels[query_id], 10))
        recalls.append(recall_at(ranked, qrels[query_id], 100))
    return {
        "ndcg_at_10": round(statistics.fmean(ndcgs), 4) if ndcgs else 0.0,
        "recall_at_100": round(statistics.fmean(recalls), 4) if recalls else 0.0,
    }
