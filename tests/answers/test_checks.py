"""answers.W001: without an API key the site answers extractively, and `manage.py check` says so."""
from django.core import checks

from answers.checks import check_generator


def test_no_api_key_is_warning_w001_saying_answers_are_extractive(settings):
    settings.ANTHROPIC_API_KEY = ""

    [warning] = check_generator()

    assert warning.id == "answers.W001" and warning.level == checks.WARNING
    assert warning.msg == "No ANTHROPIC_API_KEY: answers are extractive (quoted from the documents)."


def test_an_api_key_passes(settings):
    settings.ANTHROPIC_API_KEY = "sk-test"

    assert check_generator() == []


def test_the_check_is_registered(settings):
    settings.ANTHROPIC_API_KEY = ""

    assert "answers.W001" in [message.id for message in checks.run_checks()]


def test_embeddings_on_without_the_model_is_warning_w002(settings):
    from answers.checks import check_semantic_matching
    from answers.pipeline.embed import model

    settings.RAG_EMBEDDINGS = True
    try:
        model.reset_for_tests(missing="No module named 'onnxruntime'")
        [warning] = check_semantic_matching()
    finally:
        model.reset_for_tests()
    assert warning.id == "answers.W002"
    assert warning.msg.startswith("Semantic matching is off: No module named 'onnxruntime'.")
    settings.RAG_EMBEDDINGS = False
    assert check_semantic_matching() == []
