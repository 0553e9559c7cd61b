"""The one scripted generator the tests use: it replays queued answers as a model would stream them."""
import asyncio
from collections.abc import AsyncIterator, Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.generate.base import GenerationRequest

Piece = str | BaseException | asyncio.Event


class ScriptedGenerator:
    """Replays one script per attempt: text is yielded, an exception raised and an event awaited where each stands.

    Every request is recorded. Once the queued scripts are used up, `always` (if given) is replayed for each further
    attempt. An event that is never set holds the stream until it is cancelled; `stopped` is set when a stream ends,
    however it ends (finished, failed or cancelled). Calling the generator with a config returns it, so it also
    serves where a generator factory is expected.
    """

    def __init__(
        self,
        *attempts: Sequence[Piece],
        always: Sequence[Piece] | None = None,
        name: str = "scripted",
        regenerates: bool = True,
    ) -> None:
        self.attempts = [list(attempt) for attempt in attempts]
        self.always = list(always) if always is not None else None
        self.name = name
        self.regenerates = regenerates
        self.requests: list[GenerationRequest] = []
        self.stopped = asyncio.Event()

    def __call__(self, config: PipelineConfig) -> "ScriptedGenerator":
        return self

    async def stream(self, request: GenerationRequest) -> AsyncIterator[str]:
        """Yield the next script's text."""
        self.requests.append(request)
        script = self.attempts.pop(0) if self.attempts else list(self.always or ())
        try:
            for piece in script:
                if isinstance(piece, BaseException):
                    raise piece
                if isinstance(piece, asyncio.Event):
                    await piece.wait()
                    continue
                yield piece
        finally:
            self.stopped.set()
