"""Places: a posting's place among a query's candidates, by the per-thread map or binary search, never a stale one."""
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from answers.pipeline.retrieve import positions
from answers.pipeline.retrieve.maxscore import lookup_postings
from answers.pipeline.retrieve.positions import Places

sorted_docs = st.sets(st.integers(min_value=0, max_value=199), max_size=60).map(
    lambda docs: np.array(sorted(docs), dtype=np.int32)
)


@pytest.mark.parametrize("map_steps", [0.0, 1e9])  # always the map, always binary search
@settings(max_examples=150, deadline=None)
@given(docs=sorted_docs, postings=sorted_docs)
def test_lookup_finds_what_binary_search_finds(map_steps, docs, postings):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(positions, "MAP_STEPS", map_steps)
        found, in_postings = Places(docs, 200).lookup(postings)
    expected_found, expected_in_postings = lookup_postings(postings, docs)
    assert found.tolist() == expected_found.tolist()
    assert in_postings.tolist() == expected_in_postings.tolist()
    assert docs[found].tolist() == postings[in_postings].tolist()


def test_places_of_postings_among_the_candidates():
    docs = np.array([3, 8, 9, 40, 41], dtype=np.int32)
    assert Places(docs, 50).of_all(np.array([8, 40, 41], dtype=np.int32)).tolist() == [1, 3, 4]


def test_an_earlier_querys_places_never_make_a_false_hit(monkeypatch):
    monkeypatch.setattr(positions, "MAP_STEPS", 0.0)  # the map, not binary search
    Places(np.arange(100, dtype=np.int32), 100).of_all(np.arange(100, dtype=np.int32))  # writes every place
    docs = np.array([5, 50], dtype=np.int32)
    found, in_postings = Places(docs, 100).lookup(np.array([4, 5, 6, 49, 51, 99], dtype=np.int32))
    assert found.tolist() == [0] and in_postings.tolist() == [1]  # 4, 6, 49, 51, 99 still hold old places


def test_a_later_places_in_the_same_thread_retires_the_first():
    first = Places(np.array([1, 2], dtype=np.int32), 10)
    first.of_all(np.array([2], dtype=np.int32))
    Places(np.array([2, 7], dtype=np.int32), 10).of_all(np.array([7], dtype=np.int32))
    with pytest.raises(RuntimeError):
        first.of_all(np.array([1], dtype=np.int32))


def test_each_thread_has_its_own_map():
    docs = np.array([0, 4, 6], dtype=np.int32)
    here = Places(docs, 10)
    assert here.of_all(np.array([6], dtype=np.int32)).tolist() == [2]
    found: list[list[int]] = []
    thread = threading.Thread(
        target=lambda: found.append(Places(np.array([6], dtype=np.int32), 10).of_all(np.array([6])).tolist())
    )
    thread.start()
    thread.join()
    assert found == [[0]]
    assert here.of_all(np.array([4, 6], dtype=np.int32)).tolist() == [1, 2]  # untouched by the other thread


def test_empty_candidates_or_postings_hold_nothing():
    empty = np.zeros(0, dtype=np.int32)
    for docs, postings in ((empty, np.array([1, 2], dtype=np.int32)), (np.array([1], dtype=np.int32), empty)):
        found, in_postings = Places(docs, 5).lookup(postings)
        assert found.size == 0 and in_postings.size == 0


def test_places_from_the_callers_intp_copy_are_the_same_and_erased_the_same(monkeypatch):
    monkeypatch.setattr(positions, "MAP_STEPS", 0.0)  # the map, not binary search
    docs = np.arange(0, 20000, 2, dtype=np.int32)  # 10,000 places: past the first counting array's 4,096
    shared = Places(docs, 20000, docs.astype(np.intp))
    assert shared.of_all(np.array([0, 2, 19998], dtype=np.int32)).tolist() == [0, 1, 9999]
    found, in_postings = Places(np.array([1], dtype=np.int32), 20000).lookup(np.array([0, 1, 19998], dtype=np.int32))
    assert found.tolist() == [0] and in_postings.tolist() == [1]  # the shared copy erased every earlier place
