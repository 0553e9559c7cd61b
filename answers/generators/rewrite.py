"""The model path of follow-up resolution: one short call to the small model, falling back to the offline resolver.

It uses the answer generator's client (`shared_client`) and upstream limit, and its own deadline
(`RAG_REWRITE_TIMEOUT_S`, never longer than the answer's). Any failure (an error status, a broken connection, the
deadline, a reply `usable_rewrite` refuses) gives the offline resolution, with the reason in its note.
"""
import asyncio
import logging
from collections.abc import Sequence

import anthropic

from answers.generators.claude import LIMITER, ClaudeSettings, UpstreamLimiter, shared_client
from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups import Resolution, Turn, resolve_question
from answers.pipeline.rewrite import rewrite_prompt, usable_rewrite

logger = logging.getLogger(__name__)

REWRITE_MAX_TOKENS = 120


async def rewrite_question(
    question: str,
    history: Sequence[Turn],
    *,
    settings: ClaudeSettings,
    config: PipelineConfig,
    max_chars: int,
    client: anthropic.AsyncAnthropic | None = None,
    limiter: UpstreamLimiter = LIMITER,
) -> Resolution:
    """The model's standalone form of a follow-up, or the offline resolver's when the model's cannot be used."""
    if not history:
        return Resolution(question, False)
    offline = resolve_question(question, history, config=config)
    prompt = rewrite_prompt(question, history)
    try:
        async with (
            limiter.slot(limit=settings.max_concurrent, wait_s=settings.queue_wait_s),
            asyncio.timeout(min(settings.rewrite_timeout_s, settings.timeout_s)),
        ):
            message = await (client or shared_client(settings)).messages.create(
                model=settings.compress_model,
                max_tokens=REWRITE_MAX_TOKENS,
                system=prompt.system,
                messages=[{"role": "user", "content": prompt.user}],
            )
    # API errors, the deadline, "busy" from the limiter, and the HTTP library's own errors alike: a rewrite is an
    # aid to retrieval, so whatever stops it, the offline resolver still answers.
    except Exception as error:
        logger.warning("Follow-up rewrite failed (%s); resolved offline", type(error).__name__)
        return _fallback(offline, f"model failed: {type(error).__name__}")
    reply = "".join(part.text for part in message.content if part.type == "text")
    if message.stop_reason == "max_tokens":
        return _fallback(offline, "model reply cut off")
    text = usable_rewrite(question, reply, config=config, max_chars=max_chars)
    if text is None:
        return _fallback(offline, "model reply unusable")
    if text.rstrip("?").strip().lower() == question.rstrip("?").strip().lower():
        return Resolution(question, False, "model: standalone")
    return Resolution(text, True, "model rewrite")


def _fallback(offline: Resolution, why: str) -> Resolution:
    note = f"{why}; {offline.note}" if offline.note else why
    return Resolution(offline.question, offline.resolved, note)
