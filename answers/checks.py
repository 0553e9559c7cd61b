"""answers' system checks."""
from typing import Any

from django.conf import settings
from django.core import checks

EXTRACTIVE_ONLY = checks.Warning(
    "No ANTHROPIC_API_KEY: answers are extractive (quoted from the documents).",
    hint="Set ANTHROPIC_API_KEY for answers written by Claude (and verified sentence by sentence all the same).",
    id="answers.W001",
)


@checks.register()
def check_generator(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """answers.W001: without an API key every answer comes from the extractive generator."""
    return [] if settings.ANTHROPIC_API_KEY else [EXTRACTIVE_ONLY]
