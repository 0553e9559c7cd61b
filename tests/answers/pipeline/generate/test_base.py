"""How many times the pipeline may ask a generator while nothing it wrote is verified."""
from answers.pipeline.config import PipelineConfig
from answers.pipeline.generate.base import attempts
from answers.pipeline.generate.extractive import CANDIDATES, ExtractiveGenerator
from answers.testing.scripted import ScriptedGenerator


def test_a_generator_that_regenerates_is_asked_twice_and_one_that_does_not_once():
    assert attempts(ScriptedGenerator(regenerates=True)) == 2
    assert attempts(ScriptedGenerator(regenerates=False)) == 1


def test_the_extractive_generator_is_asked_once_per_ranked_answer_it_offers():
    assert attempts(ExtractiveGenerator(PipelineConfig())) == CANDIDATES == 3
