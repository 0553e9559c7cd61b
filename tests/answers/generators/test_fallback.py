"""RAG_FALLBACK=extractive: the fallback takes over an answer whose model failed before writing anything."""
import pytest

from answers.generators.fallback import FALLBACK_NAME, FallbackGenerator
from answers.pipeline.generate.base import GenerationFailed, GenerationRequest
from answers.testing.scripted import ScriptedGenerator

pytestmark = pytest.mark.asyncio


async def test_once_fallen_back_the_answer_is_not_asked_for_again():
    fallback = ScriptedGenerator(always=["A quoted sentence [1]. "], name="extractive", regenerates=False)
    model = ScriptedGenerator([GenerationFailed("The model is unavailable.")], name="claude")
    generator = FallbackGenerator(model, fallback)
    assert generator.regenerates  # the model may be asked twice

    text = [piece async for piece in generator.stream(GenerationRequest("Q?", (), ()))]

    assert text == ["A quoted sentence [1]. "] and generator.name == FALLBACK_NAME
    assert not generator.regenerates and len(fallback.requests) == 1  # the extractive answer would only repeat itself
