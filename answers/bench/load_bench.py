"""The load figures from nothing: start N workers on a database of their own, measure, stop them (`make bench`).

    python -m answers.bench.load_bench --database-url URL --out var/bench/load.json [--workers 1 2] [--runs 3]

For each worker count: `python -m rag_site.workers` (deployment check, migrate, demo corpus, daphne) with
RAG_LOADTEST_ECHO=1 so each worker also serves the ceiling, waits until every worker answers `/`, asks each one
question (the first answer builds the index), then runs `manage.py loadtest --json` RUNS times, each from loopback
addresses of its own (the per-address limit would refuse a second run within the minute), and stops the workers.
The Redis database is the benchmark's own: emptied before each worker count and after the last (the counters,
channel groups and socket caps a run leaves would otherwise meet the next `make bench`).
Writes {"1": [run, ...], "2": [...]} for answers/bench/readme_tables.py, each run with the machine's 1-minute load
average at its start. Imports no Django: the commands run as child processes.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

import redis

BASE_DIR = Path(__file__).resolve().parent.parent.parent
READY_TIMEOUT_S = 300.0


def wait_ready(url: str, *, process: subprocess.Popen, timeout_s: float = READY_TIMEOUT_S) -> None:
    """Return once `url` answers 200; raise if the workers exit first or it takes longer than `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the workers exited ({process.returncode}) before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310  (loopback only)
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {timeout_s:g} s")


def empty_redis(url: str) -> int:
    """Empty the benchmark's own Redis database and return how many keys it held; database 0 is refused."""
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        if client.connection_pool.connection_kwargs.get("db", 0) == 0:
            raise ValueError(f"{url} names Redis database 0, which other programs share: name one of its own (/9)")
        keys = client.dbsize()
        client.flushdb()
        return keys
    finally:
        client.close()


def loadtest(urls: Sequence[str], *, clients: int, questions: int, source: str, ceiling: bool = True) -> dict:
    """One `manage.py loadtest --json` run's figures."""
    command = [sys.executable, "manage.py", "loadtest", "-v", "0", "--json", "--spread-addresses",
               "--clients", str(clients), "--questions", str(questions), "--source-address", source]
    for url in urls:
        command += ["--url", url]
    if not ceiling:
        command.append("--no-ceiling")
    load_average = os.getloadavg()[0]  # the machine's other work at the start: the figures move with it
    done = subprocess.run(command, cwd=BASE_DIR, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: some question failed, which the figures say
        raise RuntimeError(f"loadtest failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return {**json.loads(done.stdout[done.stdout.index("{"):]), "load_average": round(load_average, 2)}


def measure(workers: int, *, env: dict[str, str], port: int, runs: int, clients: int, questions: int,
            first_source: int) -> list[dict]:
    """Start `workers` workers, measure `runs` times, stop them."""
    urls = [f"http://127.0.0.1:{port + i}" for i in range(workers)]
    process = subprocess.Popen(
        [sys.executable, "-m", "rag_site.workers", "--workers", str(workers), "--port", str(port)],
        cwd=BASE_DIR, env=env, start_new_session=True,
    )
    try:
        for url in urls:
            wait_ready(f"{url}/", process=process)
        # One question to each worker first: it builds its index. From an address no measured run uses.
        loadtest(urls, clients=workers, questions=1, source=f"127.{first_source}.0.2", ceiling=False)
        return [
            loadtest(urls, clients=clients, questions=questions, source=f"127.{first_source}.{run + 1}.2")
            for run in range(runs)
        ]
    finally:
        process.send_signal(signal.SIGINT)  # rag_site.workers stops its daphnes and the ingest worker
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m answers.bench.load_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="A PostgreSQL database for the benchmark only.")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9",
                        help="A Redis database of its own (not 0): emptied before and after.")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--port", type=int, default=8500)
    options = parser.parse_args(argv)
    env = {**os.environ, "DATABASE_URL": options.database_url, "REDIS_URL": options.redis_url,
           "RAG_LOADTEST_ECHO": "1", "RAG_TASKS_BACKEND": "immediate",
           "RAG_DB_THREADS": os.environ.get("RAG_DB_THREADS", "4")}  # no ingest worker: nothing is uploaded
    results = {}
    try:
        for n, workers in enumerate(options.workers):
            empty_redis(options.redis_url)
            results[str(workers)] = measure(workers, env=env, port=options.port, runs=options.runs,
                                            clients=options.clients, questions=options.questions, first_source=10 + n)
            shares = [run["share_of_ceiling"] for run in results[str(workers)]]
            print(f"{workers} worker(s): shares {shares}", flush=True)
    finally:
        empty_redis(options.redis_url)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
