"""Browser-test fixtures: a real daphne on the test database, Debian's Chromium, the demo corpus and signed-in callers.

These tests run in their own pytest process (`make test-browser`): sync Playwright keeps an event loop in the main
thread, so Django's ORM calls from the test need DJANGO_ALLOW_ASYNC_UNSAFE, which no other test should get.
"""
import io
import os
import re
import shutil
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from channels.routing import get_default_application
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.management import call_command
from django.db import connections
from django.test import Client
from playwright.sync_api import BrowserContext, Route

from answers.testing.live_server import running_daphnes, site_application

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"

# Anything not addressed to the live server is aborted: the tests never reach the network.
OFFSITE = re.compile(r"^(?!(https?|wss?)://127\.0\.0\.1(:\d+)?/)")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in this folder `browser`, before `-m` selects (hence tryfirst)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium (never a downloaded one), headless and quiet: no update, sync or other network traffic."""
    if os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE") != "true":
        pytest.fail("Run browser tests on their own with DJANGO_ALLOW_ASYNC_UNSAFE=true: `make test-browser`.")
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: apt-get install -y chromium (see .ci/run).")
    return {**browser_type_launch_args, "executable_path": executable, "args": CHROMIUM_ARGS}


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext]) -> Callable[..., BrowserContext]:
    """pytest-playwright's context factory (so `context` and `page` use it too), with offsite requests aborted."""

    def _new_context(**kwargs) -> BrowserContext:
        context = new_context(**kwargs)
        context.route(OFFSITE, _abort)
        return context

    return _new_context


def _abort(route: Route) -> None:
    route.abort("blockedbyclient")


@pytest.fixture
def demo_corpus(transactional_db) -> None:
    """The demo corpus, committed (not rolled back) so the server process sees it."""
    call_command("load_demo", stdout=io.StringIO())


@pytest.fixture(scope="session")
def site_imported() -> None:
    """Import the ASGI application (1-2 s of imports) once: each server forked from this process inherits it."""
    get_default_application()


@pytest.fixture
def live_server_url(site_imported, transactional_db, demo_corpus) -> Iterator[str]:
    """A real daphne serving rag_site.asgi (websockets included) on the test database, as channels'
    ChannelsLiveServerTestCase starts it; the demo corpus is loaded first, since the server builds its index
    from the database on the first question."""
    for connection in connections.all():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail("The live server needs a test database in a file (settings set TEST.NAME).")
    assert HOST in settings.ALLOWED_HOSTS, "the page's Origin host must be allowed by AllowedHostsOriginValidator"
    application = partial(site_application, static_wrapper=ASGIStaticFilesHandler)
    with running_daphnes(1, application=application, daemon=True, on_timeout=pytest.fail) as (url,):
        yield url


@pytest.fixture
def log_in(live_server_url: str) -> Callable[[BrowserContext, User], None]:
    """Sign a user in for a browser context: a session made by Django's test client, its cookie copied over."""

    def _log_in(context: BrowserContext, user: User) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server_url, "httpOnly": True, "sameSite": "Lax"}]
        )

    return _log_in
