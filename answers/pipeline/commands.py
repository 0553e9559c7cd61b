"""Commands (issue 17 item 1): a stored sentence leading with ":" and the code line right after it ("To cluster the
database test:" and "$ clusterdb test"), which the chunker stores no sentence for, quoted together as one sentence
and verified (§5.6) by the exact words of the chunk: the lead a stored sentence that is no instruction (§2.8), the
line the next of the chunk's text, in no stored sentence, both as written (white space folded, a shell prompt "$ "
before the command left out)."""
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from answers.pipeline.records import ChunkRecord
from answers.pipeline.spans import chunk_sentences
from answers.pipeline.text.instructions import instruction_reason
from answers.pipeline.text.sentences import MARKER
from answers.pipeline.types import Block, SupportSpan

MAX_CODE_CHARACTERS = 160  # a command, not a program: a longer line is never quoted
_PROMPT = re.compile(r"^\$\s+")  # a shell prompt ("$ clusterdb test"): the terminal's, not the command's


@dataclass(frozen=True)
class Command:
    """A lead sentence and the code line after it in a chunk: their texts (white space folded), the lead's 1-based
    number among the chunk's sentences, and the span from the lead's start to the line's end."""

    lead: str
    code: str
    number: int
    start: int
    end: int

    @property
    def text(self) -> str:
        """The lead and the command as one sentence, as it is shown and verified."""
        return f"{self.lead} {self.code}"


# The generator reads a chunk's commands for each question retrieving it, the verifier for each sentence citing it.
@functools.lru_cache(maxsize=1024)
def chunk_commands(record: ChunkRecord) -> tuple[Command, ...]:
    """Each stored sentence of the chunk that ends a line with ":", no instruction, with the line after it when no
    stored sentence covers that line (code: the chunker splits none) and it reads as one command: less a shell
    prompt ("$ ", which the span still covers), and, without one, a line no other line of code follows."""
    text = record.text
    sentences = chunk_sentences(record)
    covered = [(s.start, s.end) for s in sentences]
    found: list[Command] = []
    for number, span in enumerate(sentences, start=1):
        lead = text[span.start : span.end]
        if span.instruction or text[span.end : span.end + 1] != "\n" or not lead.rstrip().endswith(":"):
            continue
        start = span.end + 1
        stop = text.find("\n", start)
        end = len(text) if stop < 0 else stop
        line = " ".join(text[start:end].split())
        code = _PROMPT.sub("", line)
        if not _quotable_code(code) or any(a < end and start < b for a, b in covered):
            continue
        if code == line and _code_goes_on(text, end, covered):
            continue  # the first line of a program ("@dataclass", "# Delete everything ..."), no command
        found.append(Command(" ".join(lead.split()), code, number, span.start, end))
    return tuple(found)


def _code_goes_on(text: str, end: int, covered: Sequence[tuple[int, int]]) -> bool:
    """Whether the line after `end` is code too: written, and in no stored sentence."""
    if end >= len(text):
        return False
    stop = text.find("\n", end + 1)
    after = (end + 1, len(text) if stop < 0 else stop)
    return bool(text[after[0] : after[1]].strip()) and not any(a < after[1] and after[0] < b for a, b in covered)


def _quotable_code(code: str) -> bool:
    """Whether a code line can be quoted: one short line of something, no `[n]` a citation would be read from, and
    nothing written as an instruction."""
    return (
        0 < len(code) <= MAX_CODE_CHARACTERS and re.search(r"\w", code) is not None
        and MARKER.search(code) is None and instruction_reason(code) is None
    )


def command_support(
    text: str, cited: Sequence[int], blocks: Mapping[int, Block]
) -> tuple[tuple[int, ...], tuple[SupportSpan, ...]]:
    """The cited blocks whose chunk holds a shown sentence as one of its commands, word for word (a full stop the
    marker adds at the end aside), with the span of each; none when the sentence is no command of any."""
    passing: list[int] = []
    spans: list[SupportSpan] = []
    for n in cited:
        block = blocks.get(n)
        if block is None:
            continue
        for command in chunk_commands(block.record):
            if text in (command.text, command.text + "."):
                record = block.record
                passing.append(n)
                spans.append(SupportSpan(command.start, command.end, (command.number,),
                                         record.text[command.start : command.end]))
                break
    return tuple(passing), tuple(spans)
