"""RAG_FALLBACK=extractive: when the model fails before writing anything, answer extractively, labelled so."""
from collections.abc import AsyncIterator

from answers.pipeline.generate.base import GenerationFailed, GenerationRequest, Generator

FALLBACK_NAME = "extractive-fallback"


class FallbackGenerator:
    """The primary generator, replaced by the fallback for this answer if it fails before its first text."""

    def __init__(self, primary: Generator, fallback: Generator) -> None:
        self.primary = primary
        self.fallback = fallback
        self.name = primary.name
        self.stats = getattr(primary, "stats", None)

    @property
    def regenerates(self) -> bool:
        """Whether the generator writing this answer is worth asking again (the extractive one is not)."""
        return (self.fallback if self.name == FALLBACK_NAME else self.primary).regenerates

    async def stream(self, request: GenerationRequest) -> AsyncIterator[str]:
        """Yield the primary's text, or the fallback's when the primary wrote nothing before failing."""
        if self.name == FALLBACK_NAME:
            async for text in self.fallback.stream(request):
                yield text
            return
        wrote = False
        try:
            async for text in self.primary.stream(request):
                wrote = True
                yield text
        except GenerationFailed:
            if wrote:
                raise
            self.name = FALLBACK_NAME
            async for text in self.fallback.stream(request):
                yield text
