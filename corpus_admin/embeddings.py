"""Chunk vectors: computed at ingest (outside the version switch's transaction) and read when the index is built.

A vector is kept once per embedded text (`TextVector`, keyed by the hash of the model id and the text), so a
re-ingest or a test that ingests the same documents again embeds nothing new. With RAG_EMBEDDINGS off, or without
the model's packages, nothing is embedded and retrieval stays lexical.
"""
import logging
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from django.conf import settings

from answers.pipeline.embed.chunks import chunk_embedding_text, record_texts, sentence_texts
from answers.pipeline.embed.model import (
    DIMENSIONS,
    MODEL_ID,
    embed_texts,
    embeddings_available,
    text_key,
    unavailable_reason,
)
from answers.pipeline.embed.similarity import remember_vectors
from answers.pipeline.records import ChunkRecord, SentenceSpan
from corpus_admin.models import TextVector

logger = logging.getLogger(__name__)

Embed = Callable[[list[str]], np.ndarray]
_READ_BATCH = 500  # keys per query: well under SQLite's limit of bound parameters


def embeddings_on() -> bool:
    """Whether chunk vectors are made and used: RAG_EMBEDDINGS is on and the model loads."""
    return bool(settings.RAG_EMBEDDINGS) and embeddings_available()


def semantic_matching_status() -> str:
    """Why semantic matching is off, in a sentence for staff; empty when it is on."""
    if not settings.RAG_EMBEDDINGS:
        return "Semantic matching is off (RAG_EMBEDDINGS=0): questions are matched by their words only (BM25)."
    if not embeddings_available():
        return (f"Semantic matching is off: {unavailable_reason()}. Questions are matched by their words only "
                "(BM25).")
    return ""


def stored_vectors(keys: Iterable[str]) -> dict[str, np.ndarray]:
    """The stored vectors of those keys that have one."""
    wanted = list(dict.fromkeys(keys))
    found: dict[str, np.ndarray] = {}
    for start in range(0, len(wanted), _READ_BATCH):
        rows = TextVector.objects.filter(key__in=wanted[start : start + _READ_BATCH]).values_list("key", "vector")
        for key, blob in rows:
            vector = np.frombuffer(bytes(blob), dtype="<f4")
            if vector.shape == (DIMENSIONS,):
                found[key] = vector.astype(np.float32)
    return found


def ensure_vectors(texts: Sequence[str], *, embed: Embed = embed_texts) -> dict[str, np.ndarray]:
    """The vectors of these texts by key: stored ones read, the others embedded in one batch and stored."""
    keyed = {text_key(text): text for text in texts}
    found = stored_vectors(keyed)
    missing = [key for key in keyed if key not in found]
    if missing:
        vectors = embed([keyed[key] for key in missing])
        TextVector.objects.bulk_create(
            (TextVector(key=key, model=MODEL_ID, vector=vector.astype("<f4").tobytes())
             for key, vector in zip(missing, vectors, strict=True)),
            batch_size=_READ_BATCH,
            ignore_conflicts=True,  # another worker stored the same text meanwhile: same vector
        )
        found.update(zip(missing, vectors, strict=True))
    return found


def embed_new_chunks(
    chunks: Iterable[tuple[str, Sequence[str], str, Sequence[SentenceSpan]]], *, embed: Embed = embed_texts
) -> None:
    """Embed and store the (title, heading path, text, sentences) chunks an ingest is about to write: each one's
    whole text and its sentences, those not stored yet.

    A failure is logged, never raised: the ingest goes on, and the index build embeds what is still missing.
    """
    if not embeddings_on():
        return
    texts: list[str] = []
    for title, heading_path, text, sentences in chunks:
        texts.append(chunk_embedding_text(title, heading_path, text))
        texts.extend(sentence_texts(text, sentences))
    try:
        ensure_vectors(texts, embed=embed)
    except Exception:
        logger.warning("Embedding %d chunks failed; they are found lexically until the index embeds them",
                       len(texts), exc_info=True)


def chunk_vectors(
    records: Iterable[ChunkRecord], *, embed: Embed = embed_texts, embed_at_most: int = 2000
) -> dict[str, np.ndarray]:
    """Each served chunk record's vectors (its whole text's row, then its sentences'), by chunk id; {} when off.

    Texts ingested before vectors were made (or while embeddings were off) are embedded and stored here when they
    are at most `embed_at_most` (a small corpus catches up at once); more are left alone, so a large corpus never
    stalls a build for minutes: its chunks without vectors stay lexical until re-ingested.
    """
    if not embeddings_on():
        return {}
    texts = {record.chunk_id: record_texts(record) for record in records}
    keys = {chunk_id: [text_key(text) for text in listed] for chunk_id, listed in texts.items()}
    found = stored_vectors(key for listed in keys.values() for key in listed)
    missing = {text for chunk_id, listed in texts.items() for text, key in zip(listed, keys[chunk_id], strict=True)
               if key not in found}
    if len(missing) > embed_at_most:
        logger.warning("%d texts of the corpus have no vector (more than %d to embed while building the index): "
                       "their chunks are found lexically only until re-ingested", len(missing), embed_at_most)
    elif missing:
        try:
            found.update(ensure_vectors(sorted(missing), embed=embed))
        except Exception:
            logger.warning("Embedding %d texts for the index failed; they are found lexically only", len(missing),
                           exc_info=True)
    vectors: dict[str, np.ndarray] = {}
    for chunk_id, listed in keys.items():
        if listed[0] in found:  # a chunk is on the dense side once its whole text has a vector
            vectors[chunk_id] = np.stack([found[key] for key in listed if key in found])
    remember_vectors(  # the reader's sentence similarities then cost no embedding at question time
        (text, found[key]) for chunk_id, listed in texts.items()
        for text, key in zip(listed[1:], keys[chunk_id][1:], strict=True) if key in found
    )
    return vectors
