"""corpus_admin.W001: without tesseract the site runs, and `manage.py check` says scanned pages cannot be read."""
import pytest
from django.core import checks

from corpus_admin.checks import check_ocr


@pytest.fixture
def no_tesseract(monkeypatch):
    monkeypatch.setattr("pytesseract.pytesseract.tesseract_cmd", "tesseract-not-installed")


def test_missing_tesseract_is_warning_w001_saying_scanned_pages_cannot_be_read(no_tesseract):
    [warning] = check_ocr()

    assert warning.id == "corpus_admin.W001" and warning.level == checks.WARNING
    assert warning.msg == (
        "Scanned pages (pages with no text layer) cannot be read until tesseract is installed "
        "(Debian: apt-get install tesseract-ocr tesseract-ocr-eng)."
    )


def test_the_check_is_registered(no_tesseract):
    assert "corpus_admin.W001" in [message.id for message in checks.run_checks()]


def test_installed_tesseract_passes():  # .ci/system-tools installs it
    assert check_ocr() == []
