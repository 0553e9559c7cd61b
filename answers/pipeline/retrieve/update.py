"""Incremental update: an index without some chunks and with others, kept as a delta beside an unchanged main
segment, and merged into main (by editing its postings) once the delta grows past a size."""
import bisect
from collections import Counter
from collections.abc import Collection, Iterable

import numpy as np

from answers.pipeline.retrieve.bm25 import Bm25Index, _Vocabulary
from answers.pipeline.retrieve.postings import TIERS, _pair_codes, _ranks, _tier_offsets

# Removed main documents plus delta chunks past which an update merges the delta into main. A delta of this size
# builds in well under a second and adds little to a query; a merge rewrites every posting (seconds at 1M chunks).
MERGE_FROM = 4096


def updated_index(
    index: Bm25Index,
    *,
    removed: Collection[str],
    added: Iterable[tuple[str, str | int, list[str]]],
    merge_from: int = MERGE_FROM,
) -> Bm25Index:
    """A new index without the removed chunks and with the added ones; this one is left as it is.

    The main segment's arrays are shared, not copied: removed main chunks are masked and the added ones join the
    delta, which is indexed afresh (it is small). N, avgdl and df stay the whole index's, so it scores as an index
    built afresh from the same chunks. Once removed and delta chunks together pass merge_from, the delta is merged
    into a new main segment instead (`merged`).
    """
    removed = set(removed)
    delta_ids = {chunk_id for chunk_id, _, _ in index.delta_rows}
    positions = {chunk_id: index.position(chunk_id) for chunk_id in removed - delta_ids}
    already = set(index.removed.tolist())
    unknown = sorted(c for c, at in positions.items() if at is None or at in already)
    if unknown:
        raise ValueError(f"cannot remove chunks the index does not hold: {unknown[:5]}")
    rows = list(added)
    new_ranks = _ranks(audience for _, audience, _ in rows).tolist()
    kept_delta = [row for row in index.delta_rows if row[0] not in removed]
    new_ids = [chunk_id for chunk_id, _, _ in rows]
    gone = already | {at for at in positions.values() if at is not None}
    held = {chunk_id for chunk_id, _, _ in kept_delta}
    if len(set(new_ids)) != len(new_ids) or any(
        chunk_id in held or ((at := index.position(chunk_id)) is not None and at not in gone) for chunk_id in new_ids
    ):
        raise ValueError("chunk ids must be unique")
    delta = sorted(
        [*kept_delta, *((c, rank, list(t)) for (c, _, t), rank in zip(rows, new_ranks, strict=True))],
        key=lambda row: (row[1], row[0]),
    )
    removed_docs = np.array(sorted(gone), dtype=np.int64)
    if removed_docs.size + len(delta) >= merge_from:
        return merged(index, removed_docs=removed_docs, delta=delta)
    return index.with_change(removed=removed_docs, delta_rows=delta)


def merged(
    index: Bm25Index, *, removed_docs: np.ndarray | None = None, delta: list[tuple[str, int, list[str]]] | None = None
) -> Bm25Index:
    """One main segment holding the index's chunks (by default its own removed documents and delta), no delta."""
    removed_docs = index.removed if removed_docs is None else removed_docs
    rows = list(index.delta_rows) if delta is None else delta
    return _edited(index, removed={index.chunk_ids[i] for i in removed_docs.tolist()}, added=rows)


def _edited(
    index: Bm25Index, *, removed: Collection[str], added: Iterable[tuple[str, str | int, list[str]]]
) -> Bm25Index:
    """A new index without the removed chunks and with the added ones, made by editing the main segment's postings.

    Kept documents keep their relative order, so their postings are copied once, renumbered, and the few new
    postings are inserted where they belong: a change to a 100k-chunk index touches its arrays a few times and
    tokenizes only the added chunks. It scores as an index built afresh from the same chunks, except that terms
    keep their old numbering: the epsilon floor's average idf is then summed in another order and may differ
    in its last bit.
    """
    removed = set(removed)
    unknown = removed.difference(index.chunk_ids)
    if unknown:
        raise ValueError(f"cannot remove chunks the index does not hold: {sorted(unknown)[:5]}")
    rows = list(added)
    new_ranks = _ranks(audience for _, audience, _ in rows)
    order = sorted(range(len(rows)), key=lambda i: (int(new_ranks[i]), rows[i][0]))  # internal order
    rows, new_ranks = [rows[i] for i in order], new_ranks[order]
    kept = np.fromiter(
        (chunk_id not in removed for chunk_id in index.chunk_ids), dtype=bool, count=len(index.chunk_ids)
    )
    kept_docs = np.flatnonzero(kept)
    kept_ids = _without(index.chunk_ids, np.flatnonzero(~kept).tolist())
    new_ids = [chunk_id for chunk_id, _, _ in rows]
    rank_starts = np.searchsorted(index.ranks[kept_docs], np.arange(TIERS + 1)).tolist()
    if len(set(new_ids)) != len(new_ids) or any(
        _holds(kept_ids, chunk_id, rank_starts[rank], rank_starts[rank + 1])
        for chunk_id in new_ids for rank in range(TIERS)
    ):
        raise ValueError("chunk ids must be unique")

    # Document numbers: each new document goes before the first kept one of a greater (rank, chunk id).
    before = np.array(
        [bisect.bisect_left(kept_ids, chunk_id, rank_starts[rank], rank_starts[rank + 1])
         for chunk_id, rank in zip(new_ids, new_ranks.tolist(), strict=True)],
        dtype=np.int64,
    )
    new_numbers = before + np.arange(len(rows), dtype=np.int64)
    kept_numbers = np.arange(kept_docs.size, dtype=np.int64) + np.searchsorted(
        before, np.arange(kept_docs.size), side="right"
    )
    old_to_new = np.full(len(index.chunk_ids), -1, dtype=np.int32)
    old_to_new[kept_docs] = kept_numbers
    n_docs = kept_docs.size + len(rows)
    chunk_ids: list[str] = []
    previous = 0
    for at, chunk_id in zip(before.tolist(), new_ids, strict=True):  # before ascends: rows are in (rank, id) order
        chunk_ids.extend(kept_ids[previous:at])
        chunk_ids.append(chunk_id)
        previous = at
    chunk_ids.extend(kept_ids[previous:])
    ranks = np.empty(n_docs, dtype=np.int8)
    ranks[kept_numbers], ranks[new_numbers] = index.ranks[kept_docs], new_ranks
    lengths = np.empty(n_docs, dtype=np.int32)
    lengths[kept_numbers] = index.lengths[kept_docs]
    lengths[new_numbers] = [len(tokens) for _, _, tokens in rows]

    # The kept postings, renumbered: still ascending within each term.
    n_old_terms = len(index.terms)
    term_starts = index.offsets[0::TIERS]
    if removed:
        live = kept[index.post_docs]
        dead = np.flatnonzero(~live)
        dead_per_term = np.bincount(np.searchsorted(term_starts, dead, side="right") - 1, minlength=n_old_terms)
        docs, codes = old_to_new[index.post_docs[live]], index.post_codes[live]
        live_starts = np.concatenate(([0], np.cumsum(np.diff(term_starts) - dead_per_term)))
    else:
        docs, codes, live_starts = old_to_new[index.post_docs], index.post_codes, term_starts

    # The new postings, by (term, document), and where each goes among the kept ones.
    vocabulary = _Vocabulary(index.term_ids)
    entries = [
        (term_id, number, tf)
        for (_, _, tokens), number in zip(rows, new_numbers.tolist(), strict=True)
        for term_id, tf in Counter(map(vocabulary.__getitem__, tokens)).items()
    ]
    n_terms = len(vocabulary)
    table = np.array(entries, dtype=np.int64).reshape(-1, 3)
    table = table[np.lexsort((table[:, 1], table[:, 0]))]
    new_terms, new_docs, new_tfs = table[:, 0], table[:, 1], table[:, 2]
    live_starts = np.concatenate((live_starts, np.full(n_terms - n_old_terms, live_starts[-1], dtype=np.int64)))
    positions = np.empty(new_terms.size, dtype=np.int64)
    groups = (np.flatnonzero(np.diff(new_terms)) + 1).tolist()
    for first, last in zip([0, *groups], [*groups, new_terms.size], strict=True) if new_terms.size else ():
        low, high = int(live_starts[new_terms[first]]), int(live_starts[new_terms[first] + 1])
        positions[first:last] = low + np.searchsorted(docs[low:high], new_docs[first:last])
    post_docs = _insert_sorted(docs, positions, new_docs.astype(np.int32))
    inserted = np.bincount(new_terms, minlength=n_terms)
    # Pruning bounds: a removed chunk leaves them valid (only looser); the added postings can raise them.
    term_max_tf = np.concatenate((index.term_max_tf, np.zeros(n_terms - n_old_terms, dtype=np.int32)))
    term_min_length = np.concatenate(
        (index.term_min_length, np.full(n_terms - n_old_terms, np.iinfo(np.int32).max, dtype=np.int32))
    )
    np.maximum.at(term_max_tf, new_terms, new_tfs.astype(np.int32))
    np.minimum.at(term_min_length, new_terms, lengths[new_docs])
    term_starts = live_starts + np.concatenate(([0], np.cumsum(inserted)))

    # Codes: the (tf, length) table is kept when the new pairs fit it, else every posting is coded again.
    stride = int(index.pair_length[-1]) + 1 if index.pair_length.size else 0
    dense = index.pair_tf.size > 0 and index.pair_tf.size == (int(index.pair_tf[-1]) + 1) * stride
    new_lengths = lengths[new_docs]
    if dense and (new_tfs.size == 0 or (new_tfs.max() <= index.pair_tf[-1] and new_lengths.max() < stride)):
        post_codes = _insert_sorted(codes, positions, (new_tfs * stride + new_lengths).astype(codes.dtype))
        pair_tf, pair_length = index.pair_tf, index.pair_length
    else:
        tfs = _insert_sorted(index.pair_tf[codes].astype(np.int32), positions, new_tfs.astype(np.int32))
        post_codes, pair_tf, pair_length = _pair_codes(tfs, lengths[post_docs])

    chunk_order = _merged_chunk_order(index, kept, kept_numbers, new_ids, new_numbers, n_docs)
    return Bm25Index(
        chunk_ids=chunk_ids,
        ranks=ranks,
        lengths=lengths,
        chunk_order=chunk_order,
        terms=list(index.terms) + list(vocabulary)[n_old_terms:],
        offsets=_tier_offsets(post_docs, term_starts, ranks),
        post_docs=post_docs,
        post_codes=post_codes,
        pair_tf=pair_tf,
        pair_length=pair_length,
        term_max_tf=term_max_tf,
        term_min_length=term_min_length,
        k1=index.k1,
        b=index.b,
        epsilon=index.epsilon,
    )


def _without(items: list[str], positions: list[int]) -> list[str]:
    """The list without the items at these ascending positions (copied in slices: a few removals from many)."""
    if not positions:
        return list(items)
    kept: list[str] = []
    previous = 0
    for position in positions:
        kept.extend(items[previous:position])
        previous = position + 1
    kept.extend(items[previous:])
    return kept


def _holds(ids: list[str], chunk_id: str, low: int, high: int) -> bool:
    """Whether the sorted slice ids[low:high] holds chunk_id."""
    at = bisect.bisect_left(ids, chunk_id, low, high)
    return at < high and ids[at] == chunk_id


class _InChunkOrder:
    """The index's chunk ids in chunk-id order, as a sequence bisect can search, without sorting them again."""

    def __init__(self, index: Bm25Index) -> None:
        self._ids = index.chunk_ids
        self._docs = np.empty(len(index.chunk_ids), dtype=np.int64)
        self._docs[index.chunk_order] = np.arange(len(index.chunk_ids), dtype=np.int64)

    def __len__(self) -> int:
        return self._docs.size

    def __getitem__(self, position: int) -> str:
        return self._ids[int(self._docs[position])]


def _merged_chunk_order(
    index: Bm25Index,
    kept: np.ndarray,
    kept_numbers: np.ndarray,
    new_ids: list[str],
    new_numbers: np.ndarray,
    n_docs: int,
) -> np.ndarray:
    """Each new document's position in chunk-id order, from the old order: no sort of all the ids again."""
    removed_positions = np.sort(index.chunk_order[~kept])
    in_order = _InChunkOrder(index)
    by_id = sorted(range(len(new_ids)), key=new_ids.__getitem__)
    # For each new id (in id order): how many kept ids are smaller.
    kept_below = np.array(
        [bisect.bisect_left(in_order, new_ids[i]) for i in by_id], dtype=np.int64
    ) if new_ids else np.zeros(0, dtype=np.int64)
    kept_below -= np.searchsorted(removed_positions, kept_below)
    # A kept document's position among the kept ones, then shifted by the new ids below it.
    kept_positions = index.chunk_order[kept].astype(np.int64)
    kept_positions -= np.searchsorted(removed_positions, kept_positions)
    chunk_order = np.empty(n_docs, dtype=np.int32)
    chunk_order[kept_numbers] = kept_positions + np.searchsorted(kept_below, kept_positions, side="right")
    chunk_order[new_numbers[by_id]] = kept_below + np.arange(len(new_ids), dtype=np.int64)
    return chunk_order


def _insert_sorted(array: np.ndarray, positions: np.ndarray, values: np.ndarray) -> np.ndarray:
    """np.insert for ascending positions, by slice copies: np.insert's boolean mask over 100M postings takes
    seconds, a copy per inserted run takes milliseconds."""
    out = np.empty(array.size + positions.size, dtype=array.dtype)
    targets = positions + np.arange(positions.size)
    out[targets] = values
    previous = 0
    for shift, position in enumerate(positions.tolist()):
        if position > previous:
            out[previous + shift : position + shift] = array[previous:position]
        previous = position
    out[previous + positions.size :] = array[previous:]
    return out
