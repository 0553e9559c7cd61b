"""The fresh-process cold start: it reads a saved index, answers its queries and reports each step's seconds."""
import json
import sys

import pytest

from answers.bench.fresh_start import main
from answers.pipeline.retrieve import kernel
from answers.pipeline.retrieve.persist import write_index
from tests.answers.pipeline.retrieve.helpers import CORPUS, public_index


def test_fresh_start_reads_the_index_and_answers_every_query(tmp_path):
    index, _ = public_index(CORPUS)
    write_index(index, tmp_path / "index.npz")
    result = main([str(tmp_path / "index.npz"), json.dumps([["refund"], ["day", "30"]])])
    assert result["compiled_kernel"] is kernel.AVAILABLE
    assert result["fresh_process_cold_start_s"] >= result["fresh_process_read_s"] > 0
    assert result["fresh_process_queries_s"] >= result["fresh_process_first_query_s"]


def test_fresh_start_without_queries_reports_no_query_time(tmp_path):
    index, _ = public_index(CORPUS)
    write_index(index, tmp_path / "index.npz")
    assert main([str(tmp_path / "index.npz"), "[]"])["fresh_process_first_query_s"] == 0


def test_fresh_start_with_no_kernel_makes_numba_unimportable(tmp_path, monkeypatch):
    index, _ = public_index(CORPUS)
    write_index(index, tmp_path / "index.npz")
    monkeypatch.setitem(sys.modules, "numba", sys.modules.get("numba"))  # restored after the test
    main([str(tmp_path / "index.npz"), "[]", "--no-kernel"])
    with pytest.raises(ImportError):
        import numba  # noqa: F401
