"""Vectors of many texts kept on disk by content, so a benchmark embeds a corpus once (and resumes if stopped)."""
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from answers.pipeline.embed.model import DIMENSIONS, text_key

PART = 256  # texts per cache file: a stopped run loses at most one part


def cached_embeddings(
    texts: Sequence[str],
    folder: Path,
    *,
    embed: Callable[[list[str]], np.ndarray],
    progress: Callable[[int, int], object] | None = None,
) -> np.ndarray:
    """The texts' vectors in order, reading each part of PART texts from `folder` or embedding and saving it."""
    folder.mkdir(parents=True, exist_ok=True)
    out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    for start in range(0, len(texts), PART):
        part = list(texts[start : start + PART])
        digest = hashlib.sha256("\n".join(text_key(text) for text in part).encode()).hexdigest()
        path = folder / f"{digest}.npy"
        if path.is_file():
            vectors = np.load(path)
        else:
            vectors = embed(part).astype(np.float32)
            temporary = path.with_suffix(".tmp.npy")
            np.save(temporary, vectors)
            temporary.replace(path)
        out[start : start + len(part)] = vectors
        if progress is not None:
            progress(start + len(part), len(texts))
    return out
