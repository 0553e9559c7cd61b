"""Several workers: the production-style launcher's environment, and two daphne processes that stay coherent.

The coherence test runs two real daphne processes on PostgreSQL and Redis (CI's second run sets DATABASE_URL and
REDIS_URL): a document uploaded through worker A's admin is answered from on worker B within two seconds, and
stops being cited there within two seconds of its withdrawal on A.
"""
import json
import os
import random
import re
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connections
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from answers.testing.live_server import fresh_server_state, running_daphnes
from corpus_admin.models import Source
from rag_site.workers import (
    DEFAULT_DB_POOL_MAX,
    DEFAULT_DB_THREADS,
    LOOPBACK_OVERRIDES,
    daphne_command,
    deployment_check_env,
    deployment_env,
    ingest_worker_command,
    secret_key,
    worker_env,
)

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
COHERENT_WITHIN_S = 2.0

FERRY_FILE = "skellig-ferry.md"
FERRY_TEXT = "# Skellig ferry\n\nThe Skellig Island ferry carries at most 48 passengers on each crossing.\n"
FERRY_QUESTION = "How many passengers does the Skellig Island ferry carry?"


# The launcher's environment ------------------------------------------------------------------------------------


def test_deployment_env_turns_debug_off_and_generates_a_private_secret_key_once(tmp_path):
    key_file = tmp_path / "var" / "secret-key"

    first = deployment_env({"DJANGO_DEBUG": "true"}, key_file=key_file)
    second = deployment_env({}, key_file=key_file)

    assert first["DJANGO_DEBUG"] == "false"
    assert len(first["DJANGO_SECRET_KEY"]) >= 50
    assert second["DJANGO_SECRET_KEY"] == first["DJANGO_SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_deployment_env_keeps_what_the_environment_gives(tmp_path):
    given = {
        "DJANGO_SECRET_KEY": "given-key",
        "DATABASE_URL": "postgres://app@db.internal:5432/answers",
        "REDIS_URL": "redis://cache.internal:6379/1",
        "DJANGO_ALLOWED_HOSTS": "answers.example.com",
    }

    env = deployment_env(given, key_file=tmp_path / "secret-key")

    assert {name: env[name] for name in given} == given
    assert not (tmp_path / "secret-key").exists()


def test_deployment_env_defaults_to_postgresql_and_redis_on_loopback(tmp_path):
    env = deployment_env({}, key_file=tmp_path / "secret-key")

    assert env["DATABASE_URL"].startswith("postgres://postgres@127.0.0.1:5432/")
    assert env["REDIS_URL"] == "redis://127.0.0.1:6379/0"
    assert env["DJANGO_DB_POOL_MAX"] == DEFAULT_DB_POOL_MAX
    assert env["RAG_DB_THREADS"] == DEFAULT_DB_THREADS  # database calls side by side, fewer than the pool's
    assert deployment_env({"RAG_DB_THREADS": "2"}, key_file=tmp_path / "secret-key")["RAG_DB_THREADS"] == "2"


def test_deployment_env_pools_connections_unless_told_to_keep_them():
    assert "DJANGO_DB_POOL_MAX" not in deployment_env(
        {"DJANGO_DB_CONN_MAX_AGE": "60", "DJANGO_SECRET_KEY": "k"}, key_file=Path("/nonexistent")
    )


def test_loopback_workers_drop_the_https_redirect_and_a_tls_proxy_keeps_it():
    deployment = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "k"}

    loopback = worker_env(deployment, behind_tls_proxy=False)
    proxied = worker_env(deployment, behind_tls_proxy=True)

    assert {name: loopback[name] for name in LOOPBACK_OVERRIDES} == LOOPBACK_OVERRIDES
    assert proxied["DJANGO_BEHIND_TLS_PROXY"] == "true"
    assert not set(LOOPBACK_OVERRIDES) & set(proxied)


def test_workers_take_the_address_from_x_forwarded_for_only_when_told_they_are_behind_a_proxy():
    plain = daphne_options(daphne_command(host=HOST, port=8001))
    proxied = daphne_options(daphne_command(host=HOST, port=8001, proxy_headers=True))

    assert plain.proxy_headers is False  # a client's own X-Forwarded-For is ignored: REMOTE_ADDR is the peer
    assert proxied.proxy_headers is True and proxied.port == 8001
    assert (proxied.application, plain.application) == ("rag_site.asgi:application",) * 2


def daphne_options(command: list[str]):
    """What daphne's own command line parser makes of a daphne command's arguments."""
    from daphne.cli import CommandLineInterface

    return CommandLineInterface().parser.parse_args(command[command.index("rag_site.serve") + 1:])


def server_options(command: list[str]) -> dict[str, str | None]:
    """The proxy headers daphne's command line has its Server trust, for a daphne command's arguments."""
    from daphne.cli import CommandLineInterface

    cli = CommandLineInterface()
    args = cli.parser.parse_args(command[command.index("rag_site.serve") + 1:])
    return {  # as CommandLineInterface.run passes them
        "proxy_forwarded_address_header": cli._get_forwarded_host(args=args),
        "proxy_forwarded_port_header": cli._get_forwarded_port(args=args),
        "proxy_forwarded_proto_header": "X-Forwarded-Proto" if args.proxy_headers else None,
    }


def ask_as(url: str, forwarded_for: str) -> int:
    """POST a question to /api/answer with this X-Forwarded-For; the status code."""
    request = urllib.request.Request(
        f"{url}/api/answer", data=json.dumps({"question": FERRY_QUESTION}).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("proxy_headers", [True, False])
def test_the_per_address_limit_counts_x_forwarded_for_only_with_proxy_headers(transactional_db, settings, monkeypatch,
                                                                             ingest, proxy_headers):
    ingest(FERRY_FILE, FERRY_TEXT)
    settings.RAG_RATE_LIMIT = settings.RAG_ADDRESS_RATE_LIMIT = 1
    # A window no other test or run counts in (the counters may be a Redis they share), held for the whole test.
    window_middle = random.randrange(10**6) * 60 + 30
    monkeypatch.setattr("answers.limits.rates.wall_clock", lambda: window_middle)  # the forked server inherits it
    options = server_options(daphne_command(host=HOST, port=0, proxy_headers=proxy_headers))

    with running_daphnes(1, server_options=options, on_timeout=pytest.fail) as (url,):
        statuses = [ask_as(url, address) for address in ("203.0.113.7", "203.0.113.7", "198.51.100.9")]

    if proxy_headers:  # each visitor is the address the proxy names
        assert statuses == [200, 429, 200]
    else:  # the header is the client's own word: every question is the peer's, 127.0.0.1
        assert statuses == [200, 429, 429]


def test_workers_run_the_sites_daphne_with_timeouts_for_slow_responses_dead_sockets_and_stuck_handshakes():
    options = daphne_options(daphne_command(host=HOST, port=8001))

    assert options.http_timeout == 300  # daphne's default: none, a response may take for ever
    assert (options.websocket_connect_timeout, options.ping_interval, options.ping_timeout) == (5, 20, 30)
    assert options.application_close_timeout == 10
    assert (options.host, options.port, options.application) == (HOST, 8001, "rag_site.asgi:application")


def test_make_run_starts_the_sites_daphne_with_the_workers_timeouts():
    printed = subprocess.run(["make", "-n", "run", "run-fake-claude"], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, check=True).stdout
    lines = [line for line in printed.splitlines() if "-m rag_site.serve " in line]
    workers = daphne_options(daphne_command(host=HOST, port=8000))

    assert len(lines) == 2
    for line in lines:
        assert daphne_options(line.split()) == workers


def test_make_run_starts_the_ingest_worker_beside_daphne_and_stops_it_when_daphne_stops():
    printed = subprocess.run(["make", "-n", "run", "run-fake-claude"], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, check=True).stdout
    starts = [line for line in printed.splitlines() if "manage.py ingest_worker &" in line]

    assert len(starts) == 2
    for line in starts:
        assert "trap 'kill" in line and "$worker" in line and "wait $worker' EXIT INT TERM" in line


@pytest.mark.parametrize(("backend", "runs"), [(None, True), ("database", True), ("rq", True), ("immediate", False)])
def test_the_launcher_runs_an_ingest_worker_unless_uploads_are_ingested_in_their_request(backend, runs):
    env = {} if backend is None else {"RAG_TASKS_BACKEND": backend}

    command = ingest_worker_command(env)

    assert (command is not None) == runs
    assert command is None or command[1:] == ["manage.py", "ingest_worker"]


def test_the_deployment_check_silences_only_the_extractive_and_no_ocr_warnings_besides_what_it_was_given():
    silenced = deployment_check_env({"DJANGO_DEBUG": "false"})["DJANGO_SILENCED_SYSTEM_CHECKS"]
    assert silenced == "answers.W001,corpus_admin.W001"
    given = deployment_check_env({"DJANGO_SILENCED_SYSTEM_CHECKS": " security.W008, "})
    assert given["DJANGO_SILENCED_SYSTEM_CHECKS"] == "security.W008,answers.W001,corpus_admin.W001"


def test_deploy_check_passes_with_the_launchers_environment(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "RAG_", "DATABASE_URL", "REDIS_URL"))}
    env = deployment_env(clean, key_file=tmp_path / "secret-key")

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=deployment_check_env(env), capture_output=True, text=True, timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_secret_key_file_left_empty_is_filled(tmp_path):
    key_file = tmp_path / "secret-key"
    key_file.write_text("\n")

    assert len(secret_key(key_file)) >= 50


# Two workers on PostgreSQL and Redis ---------------------------------------------------------------------------

needs_shared_backends = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql" or not settings.REDIS_URL,
    reason="two workers share state only through PostgreSQL and Redis: set DATABASE_URL=postgres://... and "
    "REDIS_URL (CI's second run does)",
)


@pytest.fixture
def two_workers(transactional_db, filler, settings) -> Iterator[tuple[str, str]]:
    """Two daphne processes on the test database, forked once the corpus is committed."""
    # Uploads are parsed in this process's forkserver (corpus_admin/sandbox.py), which a fork of it cannot use;
    # the sandbox has its own tests, this one is about coherence.
    settings.RAG_PARSE_ISOLATION = False
    with running_daphnes(2, setup=pooled_server_state, on_timeout=pytest.fail) as urls:
        yield tuple(urls)


def pooled_server_state() -> None:
    """A forked worker as the launcher runs it: on PostgreSQL, with a connection pool (DJANGO_DB_POOL_MAX)."""
    fresh_server_state()
    database = connections["default"].settings_dict
    if database["ENGINE"] == "django.db.backends.postgresql":
        database.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": int(DEFAULT_DB_POOL_MAX),
            "timeout": 10,
        }


class Browserless:
    """A signed-in admin over plain HTTP: the session cookie of Django's test client, the CSRF token of a form."""

    def __init__(self, base_url: str, user: User) -> None:
        client = Client()
        client.force_login(user)
        self.base_url = base_url
        self.cookies = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def get(self, path: str) -> str:
        with self.opener.open(self._request(path), timeout=10) as response:
            self._keep_cookies(response)
            return response.read().decode("utf-8")

    def post_form(self, path: str, data: dict) -> str:
        body = encode_multipart(BOUNDARY, data)
        request = self._request(path, data=body, headers={"Content-Type": MULTIPART_CONTENT})
        with self.opener.open(request, timeout=30) as response:
            self._keep_cookies(response)
            return response.read().decode("utf-8")

    def csrf_token(self, path: str) -> str:
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', self.get(path))
        assert token, f"no CSRF token on {path}"
        return token.group(1)

    def _request(self, path: str, **kwargs) -> urllib.request.Request:
        request = urllib.request.Request(self.base_url + path, **kwargs)
        request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        return request

    def _keep_cookies(self, response) -> None:
        jar = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or ():
            jar.load(header)
        self.cookies.update({name: morsel.value for name, morsel in jar.items()})


def ask(base_url: str, question: str) -> dict:
    """POST /api/answer as an anonymous program."""
    request = urllib.request.Request(
        f"{base_url}/api/answer",
        data=json.dumps({"question": question}).encode("utf-8"),
        headers={"Content-Type": "application/json"},
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=10) as response:
        return json.loads(response.read())


def cites_ferry(answer: dict) -> bool:
    return answer["status"] == "answered" and any(c.startswith("skellig-ferry-") for c in answer["citations"])


def wait_until(condition, *, within: float) -> float:
    """Seconds until condition() held; fails the test if it did not within the limit."""
    started = time.monotonic()
    while True:
        if condition():
            return time.monotonic() - started
        if time.monotonic() - started > within:
            pytest.fail(f"not true within {within} s")
        time.sleep(0.05)


@needs_shared_backends
def test_upload_on_one_worker_is_answered_on_the_other_and_withdrawal_follows(two_workers, admin_user):
    worker_a, worker_b = two_workers
    before = ask(worker_b, FERRY_QUESTION)  # B has built its index before the upload, so it must notice the change
    assert before["refused"] and not cites_ferry(before)
    admin = Browserless(worker_a, admin_user)

    upload = "/admin/corpus_admin/source/upload/"
    admin.post_form(upload, {
        "csrfmiddlewaretoken": admin.csrf_token(upload),
        "files": SimpleUploadedFile(FERRY_FILE, FERRY_TEXT.encode("utf-8"), content_type="text/markdown"),
        "audience": "public",
        "document_date": "",
        "title": "",
    })
    assert Source.objects.filter(original_name=FERRY_FILE, version=1).exists()
    answered_after = wait_until(lambda: cites_ferry(ask(worker_b, FERRY_QUESTION)), within=COHERENT_WITHIN_S)

    answer = ask(worker_b, FERRY_QUESTION)
    assert "48 passengers" in answer["answer"]
    assert cites_ferry(ask(worker_a, FERRY_QUESTION))

    changelist = "/admin/corpus_admin/source/"
    source = Source.objects.get(original_name=FERRY_FILE)
    admin.post_form(changelist, {
        "csrfmiddlewaretoken": admin.csrf_token(changelist),
        "action": "withdraw_selected",
        "_selected_action": [str(source.pk)],
        "index": "0",
    })
    source.refresh_from_db()
    assert source.is_withdrawn
    withdrawn_after = wait_until(lambda: not cites_ferry(ask(worker_b, FERRY_QUESTION)), within=COHERENT_WITHIN_S)

    # wall time: two real worker processes notice the change by themselves, on their own clocks
    assert answered_after < COHERENT_WITHIN_S and withdrawn_after < COHERENT_WITHIN_S
    assert not cites_ferry(ask(worker_a, FERRY_QUESTION))
