"""The PostgreSQL + Redis pass keeps every test a backend can change and leaves out only pure ones."""
from pathlib import Path

import pytest
from django.test import SimpleTestCase, TestCase, TransactionTestCase

from rag_site.testing import backend_reasons

TESTS = Path(__file__).resolve().parents[1]
PURE_SOURCE = '''
from functools import cache

from answers.pipeline.config import PipelineConfig


@cache
def config():
    return PipelineConfig()


def test_the_limits_of_the_database_page_cache_in_words():
    assert config().max_sentences == 3, "limits, database, cache and connection are words here, not imports"
'''


def test_a_pure_function_test_is_left_out():
    fixtures = ["settings", "django_db_setup", "django_db_blocker"]  # every test's closure has the last two

    assert backend_reasons(fixtures, ["parametrize"], None, PURE_SOURCE) == []


@pytest.mark.parametrize(
    "fixture", ["db", "transactional_db", "live_server", "client", "async_client", "rf", "redis_server"]
)
def test_a_database_server_or_redis_fixture_keeps_a_test(fixture):
    assert backend_reasons(["settings", fixture], [], None, PURE_SOURCE) == [f"fixture {fixture}"]


@pytest.mark.parametrize("marker", ["django_db", "browser"])
def test_the_database_and_browser_markers_keep_a_test(marker):
    assert backend_reasons([], [marker], None, PURE_SOURCE) == [f"marker {marker}"]


@pytest.mark.parametrize("case", [SimpleTestCase, TestCase, TransactionTestCase])
def test_a_django_test_case_keeps_its_tests(case):
    assert backend_reasons([], [], case, PURE_SOURCE) == [f"Django test case {case.__name__}"]


def test_a_plain_test_class_does_not():
    class TestPlain:
        pass

    assert backend_reasons([], [], TestPlain, PURE_SOURCE) == []


@pytest.mark.parametrize(
    "line",
    [
        "from django.db import connection",
        "from channels.testing import WebsocketCommunicator",
        "from channels.layers import get_channel_layer",
        "from django.core.cache import cache",
        "settings.REDIS_URL = server.url",
        "from answers.limits.counters import site_counters",
        "from rag_site import limits",
        "from rag_site.asgi import application",
        "from answers.testing.live_server import running_daphnes",
        "subprocess.run([sys.executable, 'manage.py', 'check'])",
        "env = dict(os.environ)",
    ],
)
def test_a_module_naming_a_backend_keeps_its_tests(line):
    assert backend_reasons([], [], None, PURE_SOURCE + line + "\n") != []


def test_on_the_suite_itself_pure_modules_go_and_backend_modules_stay():
    def words(path: str) -> list[str]:
        return backend_reasons([], [], None, (TESTS / path).read_text(encoding="utf-8"))

    assert words("answers/pipeline/text/test_tokens.py") == []
    assert words("corpus_admin/parsing/test_markdown.py") == []
    assert words("answers/limits/test_counters.py") != []
    assert words("answers/test_consumers.py") != []
    assert words("rag_site/test_settings.py") != []
