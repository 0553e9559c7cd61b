"""Semantic similarity of a question to texts, for retrieval and for the reader's signals.

The question's vector is embedded once and remembered (the retriever and the reader of one question share it);
texts' vectors are remembered too, up to a bound, so a block's sentences are embedded once per process; the index
build seeds that memory with every stored sentence vector (texts as `embed.chunks.sentence_texts` gives them,
whitespace collapsed), so the reader embeds at question time only texts that are not stored sentences. Every
function returns None when the model is not installed: the caller then stays lexical.
"""
import functools
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from threading import Lock

import numpy as np

from answers.pipeline.embed.model import DIMENSIONS, EmbeddingsUnavailable, embed_texts

TEXT_CACHE = 20_000  # vectors of sentences and units kept per process (1.5 kB each)

_texts: OrderedDict[str, np.ndarray] = OrderedDict()
_texts_lock = Lock()


@functools.lru_cache(maxsize=1024)
def question_vector(question: str) -> np.ndarray | None:
    """The question's L2-normalised vector, or None without the model."""
    try:
        vector: np.ndarray = embed_texts([question])[0]
    except EmbeddingsUnavailable:
        return None
    vector.setflags(write=False)
    return vector


def text_vectors(texts: Sequence[str]) -> np.ndarray | None:
    """The texts' vectors (one row each), embedding only those not seen recently; None without the model."""
    with _texts_lock:
        known = {text: _texts[text] for text in texts if text in _texts}
        for text in known:
            _texts.move_to_end(text)
    missing = list(dict.fromkeys(text for text in texts if text not in known))
    if missing:
        try:
            vectors = embed_texts(missing)
        except EmbeddingsUnavailable:
            return None
        with _texts_lock:
            for text, vector in zip(missing, vectors, strict=True):
                known[text] = _texts[text] = vector
            while len(_texts) > TEXT_CACHE:
                _texts.popitem(last=False)
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return np.stack([known[text] for text in texts])


def remember_vectors(pairs: Iterable[tuple[str, np.ndarray]]) -> None:
    """Seed the text cache with vectors already computed (the index build's stored sentence vectors)."""
    with _texts_lock:
        for text, vector in pairs:
            _texts[text] = vector
            _texts.move_to_end(text)
        while len(_texts) > TEXT_CACHE:
            _texts.popitem(last=False)


def similarity_to_question(question: str, texts: Sequence[str]) -> np.ndarray | None:
    """Cosine similarity of the question to each text (float32, -1..1), or None without the model."""
    query = question_vector(question)
    if query is None:
        return None
    vectors = text_vectors(texts)
    if vectors is None:
        return None
    similarities: np.ndarray = vectors @ query
    return similarities


def similarity_to_vectors(question: str, vectors: np.ndarray) -> np.ndarray | None:
    """Cosine similarity of the question to stored L2-normalised vectors (one row each), or None without the model."""
    query = question_vector(question)
    return None if query is None else np.asarray(vectors, dtype=np.float32) @ query


def forget_for_tests() -> None:
    """Drop the remembered vectors."""
    question_vector.cache_clear()
    with _texts_lock:
        _texts.clear()
