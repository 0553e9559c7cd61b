"""corpus_admin's system checks."""
from typing import Any

from django.core import checks

from corpus_admin.parsing.ocr import NEEDS_TESSERACT, tesseract_available

NO_TESSERACT = checks.Warning(
    f"{NEEDS_TESSERACT[0].upper()}{NEEDS_TESSERACT[1:]}.",
    hint="PDFs with a text layer and every other format are read as usual; a PDF with no text at all is rejected.",
    id="corpus_admin.W001",
)


@checks.register("corpus_admin")  # a tag of its own, so that ingest runs it without the URL checks
def check_ocr(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """corpus_admin.W001: without tesseract on the PATH, scanned PDF pages cannot be read."""
    return [] if tesseract_available() else [NO_TESSERACT]
