"""Persistence: an index written to one .npz file and read back whole, or refused with ValueError.

The file holds the main segment's arrays as they are, the removed documents and the delta's chunks (ids, ranks,
tokens), so saving after an update costs no merge; reading indexes the small delta again."""
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from answers.pipeline.retrieve.bm25 import Bm25Index

INDEX_FORMAT = 4  # bump when the file's layout changes: older files are then refused and rebuilt


def write_index(index: Bm25Index, path: str | os.PathLike[str]) -> None:
    """Write the index to one .npz file atomically: a temporary file in the same folder, then a rename."""
    path = Path(path)
    meta = {"format": INDEX_FORMAT, "k1": index.k1, "b": index.b, "epsilon": index.epsilon,
            "chunk_ids": index.chunk_ids, "terms": index.terms,
            "delta": [[chunk_id, rank, tokens] for chunk_id, rank, tokens in index.delta_rows]}
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{id(index)}.tmp")
    try:
        with open(temporary, "wb") as handle:
            np.savez(
                handle,
                meta=np.frombuffer(json.dumps(meta, ensure_ascii=False).encode("utf-8"), dtype=np.uint8),
                ranks=index.ranks,
                lengths=index.lengths,
                chunk_order=index.chunk_order,
                offsets=index.offsets,
                post_docs=index.post_docs,
                post_codes=index.post_codes,
                pair_tf=index.pair_tf,
                pair_length=index.pair_length,
                term_max_tf=index.term_max_tf,
                term_min_length=index.term_min_length,
                removed=index.removed,
            )
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def read_index(path: str | os.PathLike[str]) -> Bm25Index:
    """Read an index written by `save`; raises ValueError or OSError if the file is not a whole index."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(data["meta"].tobytes().decode("utf-8"))
            arrays = {name: data[name] for name in data.files if name != "meta"}
    except (zipfile.BadZipFile, KeyError, EOFError) as error:  # a truncated or foreign file
        raise ValueError(f"not a saved index ({type(error).__name__}: {error})") from error
    if meta.get("format") != INDEX_FORMAT:
        raise ValueError(f"unsupported index format {meta.get('format')!r}")
    return Bm25Index(
        chunk_ids=meta["chunk_ids"],
        terms=meta["terms"],
        k1=meta["k1"],
        b=meta["b"],
        epsilon=meta["epsilon"],
        delta_rows=[(chunk_id, int(rank), list(tokens)) for chunk_id, rank, tokens in meta["delta"]],
        **arrays,
    )
