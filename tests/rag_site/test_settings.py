"""Settings: embedded defaults, refusal without a secret key (rag_site.E001), a clean deploy check."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _clean_env(**env: str) -> dict[str, str]:
    """This process's environment without the site's settings (and without an API key), plus env."""
    prefixes = ("DJANGO_", "RAG_", "DATABASE_URL", "REDIS_URL", "ANTHROPIC_")
    return {**{k: v for k, v in os.environ.items() if not k.startswith(prefixes)}, **env}


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_debug_off_without_secret_key_fails_the_check_e001_naming_the_variable():
    result = _manage("check", env={"DJANGO_DEBUG": "false"})

    assert result.returncode != 0
    assert "rag_site.E001" in result.stderr and "DJANGO_SECRET_KEY" in result.stderr


def test_debug_off_without_secret_key_the_asgi_app_refuses_to_start_naming_e001_and_the_variable():
    # What daphne does first: import the application (daphne runs no system checks, so rag_site.asgi does).
    result = subprocess.run(
        [sys.executable, "-c", "import rag_site.asgi"],
        cwd=ROOT,
        env=_clean_env(DJANGO_DEBUG="false"),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert "rag_site.E001" in result.stderr and "DJANGO_SECRET_KEY" in result.stderr


def test_the_asgi_app_starts_with_debug_off_and_a_secret_key():
    result = subprocess.run(
        [sys.executable, "-c", "import rag_site.asgi"],
        cwd=ROOT,
        env=_clean_env(DJANGO_DEBUG="false", DJANGO_SECRET_KEY="k3y-" + "x9Qz!p" * 10),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr


def test_bad_boolean_names_its_variable():
    result = _manage("check", env={"DJANGO_DEBUG": "maybe"})

    assert result.returncode != 0 and "DJANGO_DEBUG must be true or false" in result.stderr


PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "k3y-" + "x9Qz!p" * 10,
    "DJANGO_ALLOWED_HOSTS": "answers.example.com",
}


def test_deploy_check_is_clean_with_production_variables():
    # Extractive answers (no ANTHROPIC_API_KEY) are a choice, so the deployment gate silences answers.W001 by id.
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={**PRODUCTION, "DJANGO_SILENCED_SYSTEM_CHECKS": "answers.W001"},
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_with_production_variables_warns_only_that_answers_are_extractive():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)

    assert result.returncode != 0
    assert "(answers.W001) No ANTHROPIC_API_KEY: answers are extractive" in result.stderr
    assert "identified 1 issue" in result.stderr, result.stderr


def test_embedded_defaults_check_cleanly():
    result = _manage("check", env={})

    assert result.returncode == 0, result.stderr


def test_a_pool_and_kept_connections_together_are_refused_by_name():
    result = _manage(
        "check",
        env={"DATABASE_URL": "postgres://app@db.internal:5432/answers", "DJANGO_DB_POOL_MAX": "8",
             "DJANGO_DB_CONN_MAX_AGE": "60"},
    )

    assert result.returncode != 0
    assert "Set DJANGO_DB_POOL_MAX or DJANGO_DB_CONN_MAX_AGE, not both" in result.stderr


def test_a_pool_is_configured_for_postgresql():
    code = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS']['pool']['max_size'])"
    result = _manage(
        "shell", "-c", code, env={"DATABASE_URL": "postgres://app@db.internal:5432/answers", "DJANGO_DB_POOL_MAX": "5"}
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "5"  # after the shell's own lines


def test_sqlites_lock_wait_is_a_few_seconds_and_set_by_its_variable():
    show = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS']['timeout'])"

    assert _manage("shell", "-v", "0", "-c", show, env={}).stdout.strip() == "5.0"
    assert _manage("shell", "-v", "0", "-c", show, env={"DJANGO_DB_TIMEOUT_S": "1.5"}).stdout.strip() == "1.5"
