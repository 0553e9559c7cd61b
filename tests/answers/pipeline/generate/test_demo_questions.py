"""The demo questions of issue 17 get useful answers from the reader, over blocks of the demo documents (the reader
alone: whether retrieval issues those blocks is measured by `make eval`)."""
import dataclasses
from pathlib import Path

from answers.pipeline.config import PipelineConfig
from answers.pipeline.generate.extractive import extract_answer
from tests.answers.pipeline.generate.documents import document_blocks

DOCUMENTS = Path(__file__).resolve().parents[4] / "corpus_admin" / "demo" / "documents"
CONFIG = PipelineConfig()


def blocks_of(*wanted: tuple[str, str]):
    """The chunks under each (document, heading) as retrieval would issue them, the first scoring highest."""
    blocks = []
    for name, heading in wanted:
        chunks = document_blocks(name, (DOCUMENTS / name).read_text(), first=len(blocks) + 1, score=6.0 - len(blocks))
        blocks += [b for b in chunks if b.record.heading_path[-1] == heading][:1]
    return [dataclasses.replace(b, number=n) for n, b in enumerate(blocks, start=1)]


def test_reset_password_gets_the_forgot_password_steps():
    answer = extract_answer("How do I reset my password?", blocks_of(
        ("password-requirements.rst", "Changing a password"), ("password-requirements.rst", "Password storage"),
        ("password-requirements.rst", "Resetting a forgotten password"),
    ), config=CONFIG)

    assert answer[0].startswith("Click Forgot password on the sign-in page to reset a password")
    assert len(answer) > 1


def test_team_versus_enterprise_gets_a_sentence_about_each_plan():
    answer = extract_answer(
        "What's the difference between the Team and Enterprise plans?", blocks_of(
            ("pricing-plans.html", "Team plan"), ("pricing-plans.html", "Business plan"),
            ("pricing-plans.html", "Enterprise plan"),
        ), config=CONFIG
    )

    assert any("Team plan" in s for s in answer) and any("Enterprise" in s for s in answer)


def test_money_back_is_answered_from_the_refund_policy_not_the_blog():
    blocks = blocks_of(
        ("blog-why-we-love-fast-refunds.md", "Why we love fast refunds"), ("refund-policy.md", "Refund window"),
        ("refund-policy.md", "How long a refund takes"),
    )

    answer = extract_answer("Can I get my money back?", blocks, config=CONFIG)

    assert answer and all("refund" in s.lower() for s in answer)
    assert "Nobody enjoys" not in " ".join(answer)
