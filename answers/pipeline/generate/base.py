"""What a generator is: an async stream of text for a question and its numbered blocks."""
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Protocol

from answers.pipeline.types import Block


@dataclass(frozen=True)
class GenerationRequest:
    """The question, the issued blocks, and, on a later attempt, why the earlier one's sentences failed and how many
    attempts came before (a generator offering ranked answers gives its next one); `term_weights` says how much each
    of the question's terms tells over the caller's chunks (None: not known, the reader weighs them over the blocks);
    `unknown_names` are the things the question names that no document the caller may see mentions."""

    question: str
    blocks: tuple[Block, ...]
    feedback: tuple[str, ...] = ()
    term_weights: Mapping[str, float] | None = None
    attempt: int = 0
    unknown_names: tuple[str, ...] = ()


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


REGENERATED_ATTEMPTS = 2  # a generator that regenerates is asked once more with feedback


def attempts(generator: Generator) -> int:
    """How many times the pipeline may ask while nothing is verified: the generator's `offers` when it offers
    ranked answers in turn (the extractive one), else twice for one that regenerates and once for one that does not."""
    offered = getattr(generator, "offers", None)
    if isinstance(offered, int):
        return offered
    return REGENERATED_ATTEMPTS if generator.regenerates else 1
