"""BM25 index files: what is saved loads back scoring and ranking the same; a damaged file fails loudly."""
import pytest

from answers.pipeline.retrieve.bm25 import Bm25Index
from answers.pipeline.retrieve.persist import read_index, write_index
from answers.pipeline.retrieve.update import updated_index
from tests.answers.pipeline.retrieve.helpers import CORPUS, INTERNAL, PARTNER, PUBLIC, public_index


def test_a_changed_index_saves_and_loads_like_a_built_one(tmp_path):
    index, chunk_ids = public_index(CORPUS)
    changed = updated_index(index, removed=[chunk_ids[0]], added=[("new-c01", "partner", ["refund", "fast"])])
    write_index(changed, tmp_path / "changed.npz")

    loaded = read_index(tmp_path / "changed.npz")

    assert loaded.scores(["refund"], max_rank=PARTNER) == changed.scores(["refund"], max_rank=PARTNER)
    assert "new-c01" in loaded.scores(["fast"], max_rank=PARTNER)
    # saved as it is, a delta segment beside the main one: no merge on save
    assert loaded.removed.tolist() == changed.removed.tolist() == [0]
    assert loaded.delta_rows == changed.delta_rows == (("new-c01", 1, ["refund", "fast"]),)
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        query = ["refund", "fast", "day"]
        assert loaded.search(query, max_rank=max_rank, k=3) == changed.search(query, max_rank=max_rank, k=3)
        assert loaded.doc_count(max_rank=max_rank) == changed.doc_count(max_rank=max_rank)


def test_save_and_load_round_trip_gives_identical_results(tmp_path):
    docs = [("p1", "public", ["refund", "day"]), ("x1", "partner", ["refund", "floor", "floor"]),
            ("i1", "internal", ["day", "price"]), ("p2", "public", ["müller", "café", "2.5"])]
    index = Bm25Index.build(docs, k1=1.2, b=0.7, epsilon=0.3)
    path = tmp_path / "index.npz"
    write_index(index, path)
    loaded = read_index(path)
    assert [p.name for p in tmp_path.iterdir()] == ["index.npz"]  # no temporary file left behind
    for max_rank in (PUBLIC, PARTNER, INTERNAL):
        for query in (["refund"], ["day", "floor", "price"], ["café", "2.5"]):
            assert loaded.scores(query, max_rank=max_rank) == index.scores(query, max_rank=max_rank)
            assert loaded.search(query, max_rank=max_rank, k=3) == index.search(query, max_rank=max_rank, k=3)
            assert loaded.has_term(query[0], max_rank=max_rank) == index.has_term(query[0], max_rank=max_rank)


def test_loading_a_truncated_file_fails_loudly(tmp_path):
    path = tmp_path / "index.npz"
    write_index(Bm25Index.build([("a", "public", ["x", "y"])]), path)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises((ValueError, OSError)):  # what load documents for a file that is not a whole index
        read_index(path)
