"""Chat fragments: the follow-up note above the answer."""
from answers.pipeline.events import QuestionResolved
from answers.present.fragments import render_event


def test_a_resolved_follow_up_says_what_is_answered_above_the_answer_escaped():
    fragment = render_event("t1", QuestionResolved("and <b>it</b>?", "How long do <script>x</script> refunds take?"))

    assert 'hx-swap-oob="beforebegin:#answer-t1"' in fragment
    assert 'id="resolved-t1"' in fragment and 'data-event="resolved"' in fragment
    assert "Answering: <q>How long do &lt;script&gt;x&lt;/script&gt; refunds take?</q>" in fragment
    assert "<script>" not in fragment
