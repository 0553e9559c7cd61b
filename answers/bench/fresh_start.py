"""A worker's cold start, timed in the fresh process `python -m answers.bench.fresh_start INDEX QUERIES` runs.

It imports the index's modules (numba, when installed, unless a third argument --no-kernel says to act as if it
were not), reads the saved index, then answers the queries (a JSON list of token lists): the first one that
reaches the compiled kernels loads them from numba's cache, or compiles them when there is none. Prints one JSON
object of seconds.
"""
import json
import sys
import time


def main(argv: list[str]) -> dict[str, object]:
    """Time the import, the read of the index at argv[0] and the queries (JSON) at argv[1], in this process."""
    if argv[2:] == ["--no-kernel"]:
        sys.modules["numba"] = None  # type: ignore[assignment]  # an import of numba now fails, as if absent
    start = time.perf_counter()
    from answers.pipeline.retrieve import kernel
    from answers.pipeline.retrieve.persist import read_index

    imported = time.perf_counter()
    index = read_index(argv[0])
    loaded = time.perf_counter()
    first = None
    for query in json.loads(argv[1]):
        index.search(query, max_rank=0, k=10)
        first = first or time.perf_counter()
    answered = time.perf_counter()
    return {
        "fresh_process_import_s": round(imported - start, 3),
        "fresh_process_read_s": round(loaded - imported, 3),
        "fresh_process_first_query_s": round((first or loaded) - loaded, 3),
        "fresh_process_queries_s": round(answered - loaded, 3),
        "fresh_process_cold_start_s": round((first or loaded) - start, 3),
        "compiled_kernel": kernel.AVAILABLE,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
