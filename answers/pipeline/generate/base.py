"""What a generator is: an async stream of text for a question and its numbered blocks."""
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from answers.pipeline.types import Block


@dataclass(frozen=True)
class GenerationRequest:
    """The question, the issued blocks, on a second attempt why the first one's sentences failed, and how much each of
    the question's terms tells over the caller's chunks (None: not known, the reader weighs them over the blocks)."""

    question: str
    blocks: tuple[Block, ...]
    feedback: tuple[str, ...] = ()
    term_weights: Mapping[str, float] | None = None


class GenerationFailed(Exception):
    """The generator stopped; `message` is safe to show, `busy` says the upstream was overloaded."""

    def __init__(self, message: str, *, busy: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.busy = busy


class Generator(Protocol):
    """Writes sentences that end in `[n]` markers; may be asked once more with feedback."""

    name: str

    @property
    def regenerates(self) -> bool:
        """Whether it may be asked once more with feedback (a class attribute or a property)."""
        ...

    def stream(self, request: GenerationRequest) -> AsyncIterator[str]:
        """Yield the answer text as it is written."""
        ...
