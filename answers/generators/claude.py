"""The model generator: Claude's streaming Messages API behind the same verifier, with every failure contained."""
import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import anthropic
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from answers.limits.slots import LoopSlots
from answers.pipeline.generate.base import GenerationFailed, GenerationRequest
from answers.pipeline.generate.compress import (
    Compression,
    apply_compression,
    compression_prompt,
    summarise_compression,
)
from answers.pipeline.generate.prompt import Prompt, build_prompt
from answers.pipeline.types import Block
from corpus_admin.tokens import count_tokens

logger = logging.getLogger(__name__)

BUSY = "The answer service is busy right now; please try again in a minute."
UNAVAILABLE = "The answer service is not available right now; please try again later."
INTERRUPTED = "The answer was interrupted before it was finished."
TOO_SLOW = "The answer took too long and was stopped."
TOO_LONG = "The answer reached its length limit and was cut off."


@dataclass(frozen=True)
class ClaudeSettings:
    """How the generator talks to the API; services fill it from settings, where the defaults are stated."""

    api_key: str
    base_url: str | None
    answer_model: str
    compress_model: str
    compress: bool
    max_tokens: int
    timeout_s: float
    retries: int
    retry_after_cap_s: float
    max_concurrent: int
    queue_wait_s: float
    rewrite_timeout_s: float = 5.0


class UpstreamLimiter:
    """At most `limit` upstream calls at once in this process; a caller waits `wait_s`, then hears "busy"."""

    def __init__(self) -> None:
        self._slots = LoopSlots()

    @contextlib.asynccontextmanager
    async def slot(self, *, limit: int, wait_s: float) -> AsyncIterator[None]:
        """Hold one of the process's upstream slots for the duration of the block."""
        semaphore = await self._slots.take(limit=limit, wait_s=wait_s)
        if semaphore is None:
            raise GenerationFailed(BUSY, busy=True)
        try:
            yield
        finally:
            semaphore.release()


_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def shared_client(settings: ClaudeSettings) -> anthropic.AsyncAnthropic:
    """One API client per event loop and connection settings: its connections are reused from answer to answer.

    Building one costs about 18 ms (an HTTP client and a TLS context), spent on the event loop.
    """
    by_settings = _clients.setdefault(asyncio.get_running_loop(), {})
    key = (settings.api_key, settings.base_url, settings.timeout_s)
    if key not in by_settings:
        # Retries are ours (capped retry-after, no retry once text has arrived), so the SDK makes one try.
        by_settings[key] = anthropic.AsyncAnthropic(
            api_key=settings.api_key, base_url=settings.base_url, max_retries=0, timeout=settings.timeout_s
        )
    return by_settings[key]


LIMITER = UpstreamLimiter()


@dataclass
class GenerationStats:
    """What the model path did for one answer, for the conversation log."""

    attempts: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    compression: Compression | None = None
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        data = {"attempts": self.attempts, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "errors": self.errors}
        if self.compression is not None:
            data["compression"] = {
                "tokens_before": self.compression.tokens_before,
                "tokens_after": self.compression.tokens_after,
                "saved_share": self.compression.saved_share,
                "reverted": list(self.compression.reverted),
            }
        return data


def _retryable(error: BaseException) -> bool:
    if isinstance(error, anthropic.APIStatusError):
        return error.status_code in (408, 409, 429) or error.status_code >= 500
    return isinstance(error, anthropic.APIConnectionError)


class ClaudeGenerator:
    """Streams Claude's answer text; one instance serves one answer, whose deadline starts on first use."""

    name = "claude"
    regenerates = True

    def __init__(
        self,
        settings: ClaudeSettings,
        *,
        client: anthropic.AsyncAnthropic | None = None,
        limiter: UpstreamLimiter = LIMITER,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.settings = settings
        self._given_client = client
        self._limiter = limiter
        self._sleep = sleep  # between retries; tests pass one that records the wait instead
        self._deadline: float | None = None
        self.stats = GenerationStats()

    @property
    def _client(self) -> anthropic.AsyncAnthropic:
        return self._given_client or shared_client(self.settings)

    async def stream(self, request: GenerationRequest) -> AsyncIterator[str]:
        """Yield the model's answer text as it arrives."""
        loop = asyncio.get_running_loop()
        if self._deadline is None:
            self._deadline = loop.time() + self.settings.timeout_s
        blocks = request.blocks
        if self.settings.compress and not request.feedback:
            blocks = await self._compress(request.question, blocks)
        prompt = build_prompt(request.question, blocks, request.feedback)
        try:
            async with (
                self._limiter.slot(limit=self.settings.max_concurrent, wait_s=self.settings.queue_wait_s),
                contextlib.AsyncExitStack() as stack,
            ):
                stream, first = await self._open(stack, prompt, model=self.settings.answer_model)
                if first is not None:
                    yield first
                async for text in self._rest(stream):
                    yield text
        except GenerationFailed:
            raise
        except TimeoutError:
            self.stats.errors.append("deadline")
            raise GenerationFailed(TOO_SLOW) from None
        except anthropic.APIStatusError as error:
            raise self._failure(error) from None
        except anthropic.APIError as error:
            self.stats.errors.append(type(error).__name__)
            raise GenerationFailed(INTERRUPTED) from None
        except Exception as error:  # the HTTP library's own errors (a cut chunked stream, a read timeout) and the like
            self.stats.errors.append(type(error).__name__)
            logger.warning("Model stream failed: %s", type(error).__name__)
            raise GenerationFailed(INTERRUPTED) from None

    async def _open(self, stack: contextlib.AsyncExitStack, prompt: Prompt, *, model: str):
        """Send the request and wait for the first text, retrying what may be retried before any text arrived."""
        async for attempt in AsyncRetrying(
            stop=stop_after_attempt(self.settings.retries + 1),
            wait=self._wait,
            sleep=self._sleep,
            retry=retry_if_exception(_retryable),
            reraise=True,
        ):
            with attempt:
                self.stats.attempts += 1
                attempt_stack = contextlib.AsyncExitStack()
                try:
                    async with asyncio.timeout_at(self._deadline):
                        stream = await attempt_stack.enter_async_context(
                            self._client.messages.stream(
                                model=model,
                                max_tokens=self.settings.max_tokens,
                                system=prompt.system,
                                messages=[{"role": "user", "content": prompt.user}],
                            )
                        )
                        first = await self._next_text(stream)
                except BaseException:
                    await attempt_stack.aclose()
                    raise
                stack.push_async_exit(attempt_stack)
                return stream, first
        raise AssertionError("unreachable")

    async def _next_text(self, stream) -> str | None:
        """The next piece of text, or None at the end of the stream (the caller bounds the wait)."""
        while True:
            try:
                event = await stream.__anext__()
            except StopAsyncIteration:
                return None
            if event.type == "text":
                return event.text

    async def _rest(self, stream) -> AsyncIterator[str]:
        while True:
            async with asyncio.timeout_at(self._deadline):
                text = await self._next_text(stream)
            if text is None:
                break
            yield text
        async with asyncio.timeout_at(self._deadline):
            message = await stream.get_final_message()
        self.stats.input_tokens += message.usage.input_tokens
        self.stats.output_tokens += message.usage.output_tokens
        if message.stop_reason == "max_tokens":
            raise GenerationFailed(TOO_LONG)
        if message.stop_reason is None:  # the stream ended before message_stop
            raise GenerationFailed(INTERRUPTED)

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome else None
        wait = min(self._retry_after(error), self.settings.retry_after_cap_s)
        assert self._deadline is not None, "stream() sets the deadline before the first attempt"
        remaining = self._deadline - asyncio.get_running_loop().time()
        if wait >= remaining and error is not None:
            raise error  # waiting would pass the deadline: give up now with the upstream's answer
        return wait

    def _retry_after(self, error: BaseException | None) -> float:
        headers = getattr(getattr(error, "response", None), "headers", None) or {}
        for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            try:
                return max(0.0, float(headers[name]) * scale)
            except (KeyError, TypeError, ValueError):
                continue
        return 0.5 * (2 ** max(0, self.stats.attempts - 1))

    def _failure(self, error: anthropic.APIStatusError) -> GenerationFailed:
        """A safe message for an upstream status; the key and the upstream's own text never reach users."""
        self.stats.errors.append(f"status {error.status_code}")
        if error.status_code == 200:  # an error event in the middle of the stream
            logger.warning("Model stream sent an error event: %s", _error_type(error))
            return GenerationFailed(INTERRUPTED)
        if error.status_code in (429, 529) or error.status_code >= 500:
            logger.warning("Model busy or failing: status %s", error.status_code)
            return GenerationFailed(BUSY, busy=True)
        logger.error("Model request refused: status %s (%s)", error.status_code, _error_type(error))
        return GenerationFailed(UNAVAILABLE)

    async def _compress(self, question: str, blocks: tuple[Block, ...]) -> tuple[Block, ...]:
        """Ask the small model for each block's relevant sentences; any block it rewrote keeps its original."""

        async def one(block: Block) -> tuple[Block, bool]:
            prompt = compression_prompt(question, block)
            try:
                # Compression calls count against the upstream limit like the answer's own.
                async with self._limiter.slot(limit=self.settings.max_concurrent, wait_s=self.settings.queue_wait_s):
                    async with asyncio.timeout_at(self._deadline):
                        message = await self._client.messages.create(
                            model=self.settings.compress_model,
                            max_tokens=self.settings.max_tokens,
                            system=prompt.system,
                            messages=[{"role": "user", "content": prompt.user}],
                        )
            except (anthropic.APIError, TimeoutError, GenerationFailed) as error:
                self.stats.errors.append(f"compression: {type(error).__name__}")
                return block, True
            kept = "".join(part.text for part in message.content if part.type == "text")
            return apply_compression(block, kept)

        results = await asyncio.gather(*(one(block) for block in blocks))
        compressed = tuple(block for block, _ in results)
        reverted = tuple(block.number for block, was_reverted in results if was_reverted)
        self.stats.compression = summarise_compression(blocks, compressed, reverted, count_tokens)
        logger.info(
            "Compressed %s blocks: %s -> %s tokens (%.0f%% saved), reverted %s",
            len(blocks), self.stats.compression.tokens_before, self.stats.compression.tokens_after,
            100 * self.stats.compression.saved_share, list(reverted),
        )
        return compressed


def _error_type(error: anthropic.APIStatusError) -> str:
    body = error.body if isinstance(error.body, dict) else {}
    return str((body.get("error") or {}).get("type", "unknown"))
