"""rag_site.E001: DEBUG off without a secret key is a system check error, registered wherever Django is set up."""
import pytest
from django.core import checks

from rag_site.checks import check_secret_key


def ids(messages) -> list[str]:
    return [message.id for message in messages]


def test_debug_off_without_a_secret_key_is_error_e001_naming_the_variable(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = ""

    [error] = check_secret_key()

    assert error.id == "rag_site.E001" and error.level == checks.ERROR
    assert "DJANGO_SECRET_KEY" in error.msg and "DJANGO_SECRET_KEY" in error.hint


@pytest.mark.parametrize(("debug", "key"), [(False, "k3y-" + "x9Qz!p" * 10), (True, ""), (True, "any")])
def test_a_key_or_debug_on_passes(settings, debug, key):
    settings.DEBUG = debug
    settings.SECRET_KEY = key

    assert check_secret_key() == []


def test_the_check_is_registered_as_a_security_check(settings):
    settings.DEBUG = False
    settings.SECRET_KEY = ""

    assert "rag_site.E001" in ids(checks.run_checks(tags=[checks.Tags.security]))
