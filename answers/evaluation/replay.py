"""The replay set: scripted model answers, each sentence labelled true or false of a kind, with citations named by
the words of the block they mean and resolved, per question, to the number that block got in the prompt.

A case is one JSON line: `id`, `question`, `audience`, `held_out` (bool) and `sentences`, each with `text` (as the
model would write it: markers before the full stop, every marker written `[[a short exact quote]]` of the block it
cites), `label` (`true`, or the kind of falsehood: LABELS) and an optional `note` saying what the document states.
"""
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from answers.evaluation.golden import AUDIENCES, case_object
from answers.pipeline.text.sentences import parse_markers, split_sentences

TRUE = "true"
FALSE_KINDS = (
    "number_swap",  # a number of the block, but the one another fact has ("express 4 days" where 4 is standard's)
    "entity_swap",  # a city, product, plan or role that is not the one the block names
    "instruction_only",  # supported only by text written as an instruction to an AI (§2.8)
    "negation",  # the block's statement with its negation added or removed
    "clause_swap",  # two facts of the block recombined: one's subject with the other's predicate
    "contradiction",  # states the opposite of the block in other words
    "unit_swap",  # the block's number with another unit ("30 minutes" for "30 seconds")
)
LABELS = (TRUE, *FALSE_KINDS)
CITATION = re.compile(r"\[\[(.+?)\]\]")
_REQUIRED = ("id", "question", "audience", "held_out", "sentences")
_ENDS_WITH_CITATIONS = re.compile(r"(?:\s*\[\[.+?\]\])+[.!?]$")


class ReplayError(ValueError):
    """A replay file that cannot be read, with the file and line at fault."""


@dataclass(frozen=True)
class ScriptedSentence:
    """One sentence of a scripted answer, its citations written as quotes of the blocks they mean."""

    text: str
    label: str
    note: str = ""

    @property
    def truth(self) -> bool:
        return self.label == TRUE

    @property
    def quotes(self) -> tuple[str, ...]:
        """The words naming each block the sentence cites, in order."""
        return tuple(CITATION.findall(self.text))

    @property
    def plain(self) -> str:
        """The sentence as the verifier reports it: markers taken out."""
        return parse_markers(CITATION.sub("[1]", self.text)).text


@dataclass(frozen=True)
class ReplayCase:
    """One question with the answer a model is scripted to give, sentence by sentence."""

    id: str
    question: str
    audience: str
    held_out: bool
    sentences: tuple[ScriptedSentence, ...]
    line: int = 0

    @property
    def audiences(self) -> tuple[str, ...]:
        """What a caller of this case's audience may see (§3)."""
        return AUDIENCES[self.audience]


@dataclass(frozen=True)
class Resolved:
    """A scripted sentence as streamed for one prompt: its quotes replaced by the block numbers that hold them, and
    every quote that named no issued block, or several."""

    sentence: ScriptedSentence
    text: str
    cited: tuple[int, ...]
    problems: tuple[str, ...]


def load_replay(path: Path | str) -> tuple[ReplayCase, ...]:
    """Read every case of a replay file; ReplayError names the file and line of the first bad one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"{path}: cannot read the replay file ({error})") from None
    cases: list[ReplayCase] = []
    ids: dict[str, int] = {}
    questions: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            case = parse_replay_case(raw, line=number)
        except ValueError as error:
            raise ReplayError(f"{path}, line {number}: {error}") from None
        for key, seen, what in ((case.id, ids, "id"), (question_key(case.question), questions, "question")):
            if key in seen:
                raise ReplayError(f"{path}, line {number}: {what} already used on line {seen[key]}")
            seen[key] = number
        cases.append(case)
    if not cases:
        raise ReplayError(f"{path}: no cases in the replay file")
    return tuple(cases)


def parse_replay_case(raw: str, *, line: int = 0) -> ReplayCase:
    """One JSON line as a case; ValueError says which field is wrong."""
    data = case_object(raw, _REQUIRED)
    if not isinstance(data["held_out"], bool):
        raise ValueError("'held_out' must be true or false")
    if not isinstance(data["sentences"], list) or not data["sentences"]:
        raise ValueError("'sentences' must be a non-empty list")
    sentences = tuple(_sentence(item, index) for index, item in enumerate(data["sentences"], start=1))
    plain = [s.plain for s in sentences]
    repeated = sorted({text for text in plain if plain.count(text) > 1})
    if repeated:
        raise ValueError(f"sentence {repeated[0]!r} is written twice: outcomes are matched by text")
    return ReplayCase(
        id=data["id"].strip(),
        question=data["question"].strip(),
        audience=data["audience"],
        held_out=data["held_out"],
        sentences=sentences,
        line=line,
    )


def _sentence(item: object, index: int) -> ScriptedSentence:
    where = f"sentence {index}"
    if not isinstance(item, dict) or not isinstance(item.get("text"), str) or not item["text"].strip():
        raise ValueError(f"{where} must be an object with a non-empty 'text'")
    text = " ".join(item["text"].split())
    if item.get("label") not in LABELS:
        raise ValueError(f"{where}: 'label' must be one of {', '.join(LABELS)}, not {item.get('label')!r}")
    note = item.get("note", "")
    if not isinstance(note, str):
        raise ValueError(f"{where}: 'note' must be a string")
    if not _ENDS_WITH_CITATIONS.search(text):
        raise ValueError(f"{where} must end with its [[quote]] citations before the full stop: {text!r}")
    if len(split_sentences(CITATION.sub("[1]", text))) != 1:
        raise ValueError(f"{where} is read as more than one sentence: {text!r}")
    return ScriptedSentence(text=text, label=item["label"], note=note.strip())


def question_key(question: str) -> str:
    """A question as the fake server reads it back from the prompt: white space collapsed."""
    return " ".join(question.split())


def resolve_sentence(sentence: ScriptedSentence, blocks: Mapping[int, str]) -> Resolved:
    """Replace each `[[quote]]` by `[n]`, n the one issued block whose text holds the quote (white space and case
    ignored); a quote that no block, or several, hold is a problem, and its marker is left out."""
    texts = {number: _normal(text) for number, text in blocks.items()}
    cited: list[int] = []
    problems: list[str] = []

    def marker(match: re.Match[str]) -> str:
        quote = match.group(1)
        holders = sorted(number for number, text in texts.items() if _normal(quote) in text)
        if not holders:
            problems.append(f"no issued block holds {quote!r}")
            return ""
        if len(holders) > 1:
            problems.append(f"blocks {', '.join(map(str, holders))} all hold {quote!r}: quote more words")
            return ""
        cited.append(holders[0])
        return f"[{holders[0]}]"

    text = CITATION.sub(marker, sentence.text)
    return Resolved(sentence, re.sub(r"\s+([.!?])$", r"\1", text), tuple(cited), tuple(problems))


def _normal(text: str) -> str:
    return " ".join(text.split()).casefold()
