"""Production-style start: N daphne workers on PostgreSQL and Redis, DEBUG off, static files collected.

    python -m rag_site.workers --workers 2 --port 8000      (what `make run-workers WORKERS=2` runs)

Beside them runs one ingest worker (`manage.py ingest_worker`: admin uploads are ingested in the background, queued
in the database, or in Redis with RAG_TASKS_BACKEND=rq), unless RAG_TASKS_BACKEND is immediate.

Before any worker starts: the deployment check (`check --deploy --fail-level WARNING`, answers.W001 and
corpus_admin.W001 silenced: running extractive, or without OCR, is a choice) with the production security
settings, `collectstatic` (whitenoise serves var/staticfiles), `migrate` and `load_demo`. Then one daphne per port
PORT..PORT+N-1; Ctrl-C or any worker exiting stops them all.

Settings come from the environment, with loopback defaults: DATABASE_URL (PostgreSQL on 127.0.0.1, database
`rag_site`, created if missing), REDIS_URL (127.0.0.1:6379/0), DJANGO_DB_POOL_MAX (8 pooled connections per worker
unless DJANGO_DB_CONN_MAX_AGE is set), RAG_DB_THREADS (4 threads for database calls), DJANGO_ALLOWED_HOSTS
(127.0.0.1, localhost) and DJANGO_SECRET_KEY (generated once into var/secret-key when unset). The workers speak
plain HTTP on loopback, so by default they run without the HTTPS redirect and secure cookies; `--behind-tls-proxy`
keeps both on and trusts the proxy's `X-Forwarded-Proto: https` (DJANGO_BEHIND_TLS_PROXY), which is how they run
behind a proxy ending TLS.

Each visitor's address (what the per-address rate limits count by) is the peer daphne sees: behind a reverse proxy,
the proxy's, shared by every visitor. `--proxy-headers` (off by default) runs daphne with its `--proxy-headers`, so
the address is the first one of `X-Forwarded-For` instead. Only behind a proxy that overwrites that header and with
the workers reachable from nowhere else: without one, any client could send the header, name any address it likes,
and so escape the per-address limits or spend another visitor's allowance.
This module imports no Django settings: it prepares the environment the commands and workers then read.
"""
import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/rag_site"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_ALLOWED_HOSTS = "127.0.0.1,localhost"
DEFAULT_DB_POOL_MAX = "8"  # connections per worker: answers/dbcalls.py's 4 threads, asgiref's one, HTTP views
# Database calls side by side on PostgreSQL (answers/dbcalls.py): on one thread a worker answers about one question
# per sum of its round trips, whatever its CPU. Fewer than the pool's connections, so a call never waits for one.
DEFAULT_DB_THREADS = "4"
# daphne's limits on slow and dead peers (the Makefile's DAPHNE_FLAGS are the same). --http-timeout: a response not
# finished after 300 s is cut off (daphne's default is never; an answer ends within RAG_ANSWER_TIMEOUT_S plus the
# queue waits); a handshake the site has not accepted within 5 s is refused; an idle socket is pinged every 20 s and
# closed 30 s after an unanswered ping, which also frees its slot of RAG_MAX_SOCKETS_PER_CALLER; an application
# still running 10 s after its client left is killed. None of them bounds how slowly a request arrives (twisted reads
# it whole before daphne's clocks start): rag_site.serve runs daphne with a deadline for that, RAG_REQUEST_DEADLINE_S.
DAPHNE_TIMEOUTS = (
    "--http-timeout", "300", "--websocket_connect_timeout", "5", "--ping-interval", "20", "--ping-timeout", "30",
    "--application-close-timeout", "10",
)
# What plain-HTTP loopback workers must switch off; a TLS-ending proxy in front keeps them on instead.
LOOPBACK_OVERRIDES = {"DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false"}


def secret_key(path: Path) -> str:
    """The key stored at path, generated (readable by the owner only) the first time."""
    if not path.exists() or not path.read_text(encoding="utf-8").strip():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(50) + "\n")
    return path.read_text(encoding="utf-8").strip()


def deployment_env(environ: Mapping[str, str], *, key_file: Path) -> dict[str, str]:
    """The environment with DEBUG off and every production setting the deployment check needs."""
    env = dict(environ)
    env.setdefault("DATABASE_URL", DEFAULT_DATABASE_URL)
    env.setdefault("REDIS_URL", DEFAULT_REDIS_URL)
    env.setdefault("DJANGO_ALLOWED_HOSTS", DEFAULT_ALLOWED_HOSTS)
    if not env.get("DJANGO_DB_CONN_MAX_AGE"):
        env.setdefault("DJANGO_DB_POOL_MAX", DEFAULT_DB_POOL_MAX)
    env.setdefault("RAG_DB_THREADS", DEFAULT_DB_THREADS)
    env["DJANGO_DEBUG"] = "false"
    if not env.get("DJANGO_SECRET_KEY"):
        env["DJANGO_SECRET_KEY"] = secret_key(key_file)
    return env


def deployment_check_env(deployment: Mapping[str, str]) -> dict[str, str]:
    """The deployment check's environment: answers.W001 and corpus_admin.W001 silenced, choices rather than flaws.

    Extractive answers (no API key) and a site without tesseract (scanned PDF pages not read) both work as
    documented. Every other warning still fails the check; `migrate`, run next, still prints both.
    """
    env = dict(deployment)
    silenced = [name.strip() for name in env.get("DJANGO_SILENCED_SYSTEM_CHECKS", "").split(",") if name.strip()]
    env["DJANGO_SILENCED_SYSTEM_CHECKS"] = ",".join([*silenced, "answers.W001", "corpus_admin.W001"])
    return env


def worker_env(deployment: Mapping[str, str], *, behind_tls_proxy: bool) -> dict[str, str]:
    """The workers' environment: behind a TLS proxy, trust its forwarded scheme; on plain loopback, no redirect."""
    env = dict(deployment)
    if behind_tls_proxy:
        env["DJANGO_BEHIND_TLS_PROXY"] = "true"
    else:
        for name, value in LOOPBACK_OVERRIDES.items():
            env.setdefault(name, value)
    return env


def daphne_command(*, host: str, port: int, proxy_headers: bool = False) -> list[str]:
    """One worker's command line; with proxy_headers, the client address is taken from X-Forwarded-For."""
    command = [sys.executable, "-m", "rag_site.serve", *DAPHNE_TIMEOUTS, "-b", host, "-p", str(port)]
    if proxy_headers:  # trusted only behind a proxy that overwrites the header (see the module's docstring)
        command.append("--proxy-headers")
    return [*command, "rag_site.asgi:application"]


def ingest_worker_command(env: Mapping[str, str]) -> list[str] | None:
    """The ingest worker's command line, or None when uploads are ingested in their request."""
    if env.get("RAG_TASKS_BACKEND") == "immediate":
        return None
    return [sys.executable, "manage.py", "ingest_worker"]


def ensure_database(database_url: str) -> None:
    """Create the PostgreSQL database the URL names if it does not exist yet (other engines: nothing to do)."""
    import dj_database_url
    import psycopg
    from psycopg import sql

    config = dj_database_url.parse(database_url)
    if config["ENGINE"] != "django.db.backends.postgresql":
        return
    with psycopg.connect(  # psycopg leaves out the parameters that are None
        dbname="postgres",
        host=config["HOST"] or None,
        port=config["PORT"] or None,
        user=config["USER"] or None,
        password=config["PASSWORD"] or None,
        autocommit=True,
    ) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))
            print(f"Created database {config['NAME']}.", flush=True)


def manage(*args: str, env: Mapping[str, str]) -> None:
    """Run one manage.py command; stop everything if it fails."""
    subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, check=True)


def prepare(deployment: Mapping[str, str], workers: Mapping[str, str], *, demo: bool) -> None:
    """The deployment gate, then what every worker needs in place before it starts."""
    manage("check", "--deploy", "--fail-level", "WARNING", env=deployment_check_env(deployment))
    try:
        ensure_database(workers["DATABASE_URL"])
    except Exception as error:  # psycopg's errors name the host and the reason
        raise SystemExit(f"Cannot reach the database {_redacted(workers['DATABASE_URL'])}: {error}") from None
    manage("collectstatic", "--noinput", "--verbosity", "0", env=workers)
    manage("migrate", "--noinput", "--verbosity", "0", env=workers)
    if demo:
        manage("load_demo", env=workers)


def serve(commands: Sequence[list[str]], *, env: Mapping[str, str]) -> int:
    """Start every worker; when one exits or a signal arrives, stop the others. Returns the exit status."""
    processes = [subprocess.Popen(command, cwd=BASE_DIR, env=env) for command in commands]
    stopping = False

    def stop(signum: int, frame) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stopping and all(process.poll() is None for process in processes):
            time.sleep(0.2)
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    failed = [p.returncode for p in processes if p.returncode not in (0, -signal.SIGTERM, -signal.SIGINT)]
    return 0 if stopping or not failed else failed[0] or 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_site.workers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="How many daphne processes (2).")
    parser.add_argument("--host", default="127.0.0.1", help="Address to bind (127.0.0.1).")
    parser.add_argument("--port", type=int, default=8000, help="First port; worker i listens on PORT+i (8000).")
    parser.add_argument("--behind-tls-proxy", action="store_true", help="A proxy in front ends TLS: keep the HTTPS "
                        "redirect and secure cookies on and trust its X-Forwarded-Proto header.")
    parser.add_argument("--proxy-headers", action="store_true", help="Take each visitor's address from "
                        "X-Forwarded-For (rate limits per address). Only behind a proxy that overwrites the header: "
                        "otherwise clients can spoof their address.")
    parser.add_argument("--no-demo", dest="demo", action="store_false", help="Do not load the demo corpus.")
    options = parser.parse_args(argv)
    if options.workers < 1:
        parser.error("--workers must be at least 1")

    deployment = deployment_env(os.environ, key_file=BASE_DIR / "var" / "secret-key")
    workers = worker_env(deployment, behind_tls_proxy=options.behind_tls_proxy)
    try:
        prepare(deployment, workers, demo=options.demo)
    except subprocess.CalledProcessError as error:
        print(f"Stopped before starting workers: {' '.join(error.cmd[1:])} failed.", file=sys.stderr)
        return error.returncode or 1
    ports = [options.port + i for i in range(options.workers)]
    commands = [daphne_command(host=options.host, port=p, proxy_headers=options.proxy_headers) for p in ports]
    ingest = ingest_worker_command(workers)
    if ingest is not None:
        commands.append(ingest)
    print(
        f"{options.workers} worker(s) on " + ", ".join(f"http://{options.host}:{p}/" for p in ports)
        + (" and an ingest worker" if ingest is not None else "")
        + f" (database {_redacted(workers['DATABASE_URL'])},"
        f" channel layer and cache {_redacted(workers['REDIS_URL'])})."
        " Ctrl-C stops them all.",
        flush=True,
    )
    return serve(commands, env=workers)


def _redacted(url: str) -> str:
    """The URL without its password, for printing."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return url


if __name__ == "__main__":
    sys.exit(main())
