"""The events of §6: one stream, rendered as HTML fragments, Server-Sent Events or one JSON object."""
import datetime as dt
from dataclasses import dataclass, field

from answers.pipeline.types import SupportSpan

NO_MATERIAL, CONFLICT, UNSUPPORTED = "no_material", "conflict", "unsupported"
ANSWERED, REFUSED, INCOMPLETE, FAILED = "answered", "refused", "incomplete", "failed"


@dataclass(frozen=True)
class ChunkRef:
    """A numbered reference to a chunk, the one shape every event cites by: an issued block, a verified citation,
    a conflict's side. Block n, the chunk it maps to, the source facts a citation shows, and for a verified citation
    the support span that states the sentence (§2.7)."""

    n: int
    chunk_id: str
    source_title: str
    updated_on: dt.date | None
    span: SupportSpan | None = None


@dataclass(frozen=True)
class ConflictSide:
    """One side of a conflict: the statement and the block it stands in."""

    statement: str
    ref: ChunkRef


@dataclass(frozen=True)
class QuestionResolved:
    """`resolved`: a follow-up was rewritten into a standalone question, which is what was answered (§6a).

    Shown to end users as "Answering: <resolved>"; the rewrite is only ever a search question, never a fact.
    """

    asked: str
    resolved: str
    kind = "resolved"


@dataclass(frozen=True)
class BlocksIssued:
    """`meta`: the numbered blocks issued for this question."""

    blocks: tuple[ChunkRef, ...]
    context_tokens: int
    retrieved: tuple[tuple[str, float], ...] = ()
    kind = "meta"


@dataclass(frozen=True)
class ListItem:
    """Where a shown sentence stands in a list: an item of an ordered (numbered) or unordered (bulleted) list.

    `item` names the item: consecutive sentences with the same one are one item, consecutive list items of one kind
    are one list. A sentence is a list item when the generator wrote it as one ("1. ", "- ") or when it is, word for
    word, a sentence of a list item of the passage it cites (the text model marks those at ingestion).
    """

    ordered: bool
    item: str


@dataclass(frozen=True)
class SentenceVerified:
    """`sentence`: a sentence that passed every gate for at least one citation; `list_item` when it is (part of) an
    item of a list, None otherwise (an additive field: consumers that ignore it show the sentences as before)."""

    text: str
    citations: tuple[ChunkRef, ...]
    list_item: ListItem | None = None
    kind = "sentence"


@dataclass(frozen=True)
class AnswerRefused:
    """`refusal`: no_material, conflict (with both sides, newest first) or unsupported."""

    reason: str
    message: str
    sides: tuple[ConflictSide, ...] = ()
    kind = "refusal"


@dataclass(frozen=True)
class SentenceDropped:
    """`dropped`: a sentence that failed verification; kept for staff, never shown to end users."""

    text: str
    reasons: tuple[str, ...]
    kind = "dropped"


@dataclass(frozen=True)
class AnswerDiagnosed:
    """`diagnostics`: why the answer went as it did, for staff only, never shown to end users.

    The gate's reason for a refusal before generation, the chunk ids assembly skipped with why, and what broke a
    generator (its traceback when it raised something it should not have).
    """

    gate: str = ""
    skipped: tuple[tuple[str, str], ...] = ()
    generator_error: str = ""
    kind = "diagnostics"


@dataclass(frozen=True)
class AnswerDone:
    """`done`: how the answer ended, with counts and timings in milliseconds."""

    status: str
    counts: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    generator: str = ""
    kind = "done"


@dataclass(frozen=True)
class AnswerFailed:
    """`error`: a message safe to show."""

    message: str
    kind = "error"


Event = (
    QuestionResolved | BlocksIssued | SentenceVerified | AnswerRefused | SentenceDropped | AnswerDiagnosed | AnswerDone
    | AnswerFailed
)
# Kept in the conversation log for staff; no surface shows them to an end user.
STAFF_ONLY: tuple[type, ...] = (SentenceDropped, AnswerDiagnosed)
