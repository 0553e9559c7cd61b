"""RAG_FALLBACK=extractive: the fallback takes over an answer whose model failed before writing anything."""
import pytest

from answers.fallback import FALLBACK_NAME, FallbackGenerator
from answers.pipeline.generation import GenerationFailed, GenerationRequest

pytestmark = pytest.mark.asyncio


class Failing:
    name, regenerates = "claude", True

    async def stream(self, request: GenerationRequest):
        raise GenerationFailed("The model is unavailable.")
        yield  # an async generator


class Quoting:
    name, regenerates = "extractive", False

    def __init__(self) -> None:
        self.calls = 0

    async def stream(self, request: GenerationRequest):
        self.calls += 1
        yield "A quoted sentence [1]. "


async def test_once_fallen_back_the_answer_is_not_asked_for_again():
    fallback = Quoting()
    generator = FallbackGenerator(Failing(), fallback)
    assert generator.regenerates  # the model may be asked twice

    text = [piece async for piece in generator.stream(GenerationRequest("Q?", (), ()))]

    assert text == ["A quoted sentence [1]. "] and generator.name == FALLBACK_NAME
    assert not generator.regenerates and fallback.calls == 1  # the extractive answer would only repeat itself
