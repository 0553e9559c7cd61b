"""Block-max bounds: per term and per block of 128 consecutive document numbers, a bound of what it adds there.

MaxScore (`retrieve.maxscore`) bounds a term by its largest contribution anywhere. Here the documents are cut into
fixed blocks of document numbers, the same cut for every term, and each common term keeps, per block, the pair
code of (its largest tf in the block, the shortest document holding it there): the tf part of that pair is at least
the tf part of every posting of the block (it rises with tf and falls with length), whatever the tier's average
length, so one table serves every tier, a removed document only loosens it, and a code of 0 marks a block where the
term is absent. Summing a query's terms' block bounds gives, per block, a bound of any document's score there:
blocks whose bound stays below the k-th best are skipped, and over the others each term's bound is its largest
there, tighter than its bound over every document.

Tables take 2 bytes per block for the terms in at least 1/MIN_SHARE of the documents and nothing for the long tail
of rare terms: on the synthetic Zipfian corpus, 751 terms, 12 bytes a chunk at 100k and at 1M alike.
"""
import numpy as np

BLOCK_SHIFT = 7  # blocks of 128 document numbers
MIN_SHARE = 64  # terms in at least 1/64 of the documents get a table


def block_tables(
    *,
    post_docs: np.ndarray,
    post_codes: np.ndarray,
    term_starts: np.ndarray,
    pair_tf: np.ndarray,
    pair_length: np.ndarray,
    n_docs: int,
) -> dict[int, np.ndarray]:
    """Per common term, each block's pair code of (largest tf, shortest length) in it, 0 where the term is absent.

    Only with the dense pair table (code = tf * stride + length), where every such pair has a code.
    """
    if not n_docs or not pair_tf.size:
        return {}
    stride = int(pair_length[-1]) + 1
    if pair_tf.size != (int(pair_tf[-1]) + 1) * stride:
        return {}
    blocks = ((n_docs - 1) >> BLOCK_SHIFT) + 1
    common = np.flatnonzero(np.diff(term_starts) * MIN_SHARE >= n_docs).tolist()
    tables = {}
    for term_id in common:
        start, end = int(term_starts[term_id]), int(term_starts[term_id + 1])
        docs, codes = post_docs[start:end], post_codes[start:end]
        block_of = docs >> BLOCK_SHIFT
        firsts = np.flatnonzero(np.concatenate(([True], block_of[1:] != block_of[:-1])))
        max_tf = np.maximum.reduceat(pair_tf.take(codes), firsts)
        min_length = np.minimum.reduceat(pair_length.take(codes), firsts)
        table = np.zeros(blocks, dtype=post_codes.dtype)
        table[block_of.take(firsts)] = max_tf * stride + min_length  # tf >= 1: never the absent code 0
        tables[term_id] = table
    return tables
