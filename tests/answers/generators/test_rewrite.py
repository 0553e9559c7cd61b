"""The model's follow-up rewrite against the local fake Anthropic server: used when usable, else the offline one."""
import pytest
from asgiref.sync import sync_to_async

from answers import services
from answers.generators.claude import ClaudeSettings
from answers.generators.rewrite import rewrite_question
from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Turn
from answers.testing.fake_anthropic import FakeAnthropic, http_error, max_tokens, reply, stall

pytestmark = pytest.mark.asyncio

CONFIG = PipelineConfig()
HISTORY = (Turn("How long do refunds take?", ("Refunds take 5 business days.",),
                ("Refunds\nRefunds take 5 business days.",)),)
FOLLOW_UP = "and for digital goods?"
OFFLINE = "How long do refunds take for digital goods?"


@pytest.fixture
def fake():
    with FakeAnthropic() as server:
        yield server


def claude_settings(fake: FakeAnthropic, **changes) -> ClaudeSettings:
    values = {
        "api_key": "sk-ant-test", "base_url": fake.url, "answer_model": "claude-sonnet-5",
        "compress_model": "claude-haiku-test", "compress": False, "max_tokens": 512, "timeout_s": 10, "retries": 0,
        "retry_after_cap_s": 0, "max_concurrent": 4, "queue_wait_s": 1, "rewrite_timeout_s": 5,
    } | changes
    return ClaudeSettings(**values)


async def rewrite(fake: FakeAnthropic, question: str = FOLLOW_UP, **changes):
    return await rewrite_question(question, HISTORY, settings=claude_settings(fake, **changes), config=CONFIG,
                                  max_chars=2000)


async def test_the_models_rewrite_is_the_question_answered(fake):
    fake.queue(reply("How long do refunds for digital goods take?"))

    resolution = await rewrite(fake)

    assert resolution.resolved is True
    assert resolution.question == "How long do refunds for digital goods take?"
    assert resolution.note == "model rewrite"
    body = fake.requests[0]
    assert body["model"] == "claude-haiku-test" and not body.get("stream")
    prompt = body["messages"][0]["content"]
    assert "<untrusted_conversation>\nQ: How long do refunds take?\nA: Refunds take 5 business days." in prompt
    assert prompt.endswith("Last question: and for digital goods?")


async def test_a_standalone_question_the_model_returns_as_it_is_stays_unresolved(fake):
    question = "Who can request a refund?"
    fake.queue(reply("Who can request a refund?"))

    resolution = await rewrite(fake, question)

    assert resolution.resolved is False and resolution.question is question


@pytest.mark.parametrize(
    "behaviour",
    [
        http_error(529, "overloaded_error"),
        http_error(401, "authentication_error"),
        reply(""),
        reply("Refunds for digital goods take 10 days [1]."),
        reply("The documents do not answer this question."),  # drops the question's own words
        reply("How long do refunds take\nfor digital goods?"),
        max_tokens("How long do refunds take for digital"),
    ],
)
async def test_a_failed_or_unusable_rewrite_falls_back_to_the_offline_resolver(fake, behaviour):
    fake.queue(behaviour)

    resolution = await rewrite(fake)

    assert resolution.resolved is True and resolution.question == OFFLINE
    assert resolution.note.startswith("model")


async def test_a_reply_longer_than_the_question_limit_is_not_used(fake):
    fake.queue(reply("How long do refunds take for digital goods " + "and more " * 300 + "?"))

    assert (await rewrite(fake)).question == OFFLINE


async def test_a_stalled_rewrite_is_given_up_at_its_deadline(fake):
    fake.queue(stall(seconds=5))

    resolution = await rewrite(fake, rewrite_timeout_s=0.2)

    assert resolution.question == OFFLINE and "TimeoutError" in resolution.note


async def test_no_history_makes_no_call(fake):
    resolution = await rewrite_question(FOLLOW_UP, (), settings=claude_settings(fake), config=CONFIG, max_chars=2000)

    assert resolution.question == FOLLOW_UP and not fake.requests


@pytest.mark.django_db(transaction=True)
async def test_the_service_answers_the_models_rewrite_and_says_so_first(fake, settings, ingest, filler):
    await sync_to_async(ingest)("refunds.md", "# Refunds\n\nRefunds for digital goods take 10 days.\n")
    settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL, settings.RAG_FALLBACK = "sk-ant-test", fake.url, ""
    fake.queue(reply("How long do refunds for digital goods take?"))  # then the demo answer from the blocks

    stream = await services.ask(caller=services.Caller(limited=False), question=FOLLOW_UP, channel="api",
                                history=HISTORY)
    kinds = [event.kind async for event in stream]

    assert kinds[0] == "resolved"
    assert stream.summary.resolved.resolved == "How long do refunds for digital goods take?"
    assert "How long do refunds for digital goods take?" in fake.requests[1]["messages"][0]["content"]
    assert [s.text for s in stream.summary.sentences] == ["Refunds for digital goods take 10 days."]
