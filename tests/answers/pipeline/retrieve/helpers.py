"""Builders the BM25 tests share: audience ranks, a small corpus, a public index and hypothesis strategies.

A plain module (a conftest cannot be imported): `from tests.answers.pipeline.retrieve.helpers import ...` works
under pytest's importlib mode because the project root is on sys.path (pytest-django puts manage.py's folder there).
"""
from hypothesis import strategies as st

from answers.pipeline.retrieve.bm25 import Bm25Index

AUDIENCES = ("public", "partner", "internal")
PUBLIC, PARTNER, INTERNAL = 0, 1, 2

CORPUS = [
    ["refund", "polici", "refund", "day"],
    ["upload", "limit", "200", "mb"],
    ["refund", "window", "30", "day"],
    ["trial", "last", "30", "day"],
    ["shortcut", "key"],
]

words = st.sampled_from([f"t{i}" for i in range(12)])
queries = st.lists(st.sampled_from([f"t{i}" for i in range(15)]), min_size=1, max_size=6)


def public_index(docs: list[list[str]], **params: float) -> tuple[Bm25Index, list[str]]:
    """An index of public documents, and their chunk ids in order."""
    chunk_ids = [f"doc-c{i:05d}" for i in range(len(docs))]
    return Bm25Index.build(((c, "public", d) for c, d in zip(chunk_ids, docs, strict=True)), **params), chunk_ids
