"""Who a "who ...?" question's answer names: the agent of a passive, else the answer's subject."""
import pytest

from answers.pipeline.answered import who_answered
from answers.pipeline.config import PipelineConfig

CONFIG = PipelineConfig()


@pytest.mark.parametrize(
    ("question", "answer", "people"),
    [
        ("Who can see invoices?", "Only the workspace owner and billing admins can see invoices.",
         "the workspace owner and billing admins"),
        ("Who reviews refund requests?", "Each refund request is reviewed by the Lumora Labs billing team.",
         "the Lumora Labs billing team"),
        ("Who can restore files deleted by another member?",
         "Workspace admins can restore files deleted by any member.", "Workspace admins"),
        # not a "who" question
        ("How do I see invoices?", "Only the workspace owner and billing admins can see invoices.", ""),
        # the answer's subject is what was asked about, not who
        ("Who can see invoices?", "Invoices can be seen on the Billing page.", ""),
        # no auxiliary: the subject stands before the asked verb
        ("Who approves refunds?", "The billing team approves refunds.", "The billing team"),
        # "by" after a participle with no "be" before it: a reduced clause, not a passive's agent
        ("Who reviews refund requests?", "Refund requests reviewed by the billing team are paid in 5 days.", ""),
        # a short phrase between the participle and its agent
        ("Who handles urgent outages on weekends?", "Urgent outages are handled at any time by the operations team.",
         "the operations team"),
        # an adverb in -ly between them
        ("Who quotes Enterprise plans?", "Enterprise plans are quoted individually by the Lumora Labs sales team.",
         "the Lumora Labs sales team"),
        # a verb, not a phrase, between them: no passive's agent
        ("Who handles urgent outages?", "Urgent outages are handled and logged by the operations team.", ""),
        # nothing before the verb
        ("Who approves refunds?", "Approved refunds are paid in 5 days.", ""),
    ],
)
def test_who_answered_reads_the_people_from_the_answer(question, answer, people):
    assert who_answered(question, (answer,), config=CONFIG) == people


def test_no_answer_names_nobody():
    assert who_answered("Who can see invoices?", (), config=CONFIG) == ""


def test_an_answer_naming_nobody_leaves_the_people_to_the_cited_sentence_holding_the_question():
    answer = ("Refund requests are made from the Billing page of the admin console.",)
    cited = ("Refund policy\nWho can request a refund\nOnly the workspace owner can request a refund. Refund requests "
             "are made from the Billing page of the admin console.",)

    assert who_answered("Who can request a refund?", answer, config=CONFIG) == ""
    assert who_answered("Who can request a refund?", answer, config=CONFIG, cited_texts=cited) == "the workspace owner"
    assert who_answered("Who can cancel a refund?", answer, config=CONFIG, cited_texts=cited) == ""
