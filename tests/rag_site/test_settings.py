"""Settings: embedded defaults, refusal without a secret key, a clean deploy check."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "RAG_", "DATABASE_URL", "REDIS_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_debug_off_without_secret_key_refuses_to_start_naming_the_variable():
    result = _manage("check", env={"DJANGO_DEBUG": "false"})

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_bad_boolean_names_its_variable():
    result = _manage("check", env={"DJANGO_DEBUG": "maybe"})

    assert result.returncode != 0 and "DJANGO_DEBUG must be true or false" in result.stderr


def test_deploy_check_is_clean_with_production_variables():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "k3y-" + "x9Qz!p" * 10,
            "DJANGO_ALLOWED_HOSTS": "answers.example.com",
        },
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


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
