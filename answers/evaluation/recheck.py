"""An independent re-check of every delivered sentence: none of the pipeline's own code or verdict is reused."""
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_OVERLAP = 0.3
PREFIX = 5  # words compare on their first letters, a stemmer in miniature ("refunds" ~ "refunded")

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")  # "5-7" gives 5 and 7; a trailing full stop is not part of it
_WORD = re.compile(r"[^\W\d_]+")
_STOP = frozenset(
    "the and for are was were with that this from have has had not but you your its can will all any each per "  # noqa: SIM905 (a word list reads best as one string)
    "into our than then they their them there what when which who how does did been being also only such may "
    "must over under after before about".split()
)


@dataclass(frozen=True)
class CitedChunk:
    """What the evaluation knows of a cited chunk: its text, its source's audience and path (the source's key)."""

    chunk_id: str
    text: str
    audience: str
    source_path: str = ""


def numbers_of(text: str) -> set[str]:
    """Every number written in the text: digits with . or , inside; both ends of a range."""
    return set(_NUMBER.findall(text))


def content_words(text: str) -> set[str]:
    """Lower-case alphabetic words of 3+ letters, minus a small stop list, cut to their first letters."""
    words = (word for word in _WORD.findall(text.lower()) if len(word) >= 3 and word not in _STOP)
    return {word[:PREFIX] for word in words}


def recheck_sentence(
    text: str,
    cited: Sequence[str],
    *,
    chunks: Mapping[str, CitedChunk],
    audiences: Sequence[str],
    min_overlap: float = MIN_OVERLAP,
) -> tuple[str, ...]:
    """Why a delivered sentence is not backed by what it cites; empty when it is."""
    if not cited:
        return ("no citation",)
    reasons: list[str] = []
    known = [chunks[chunk_id] for chunk_id in cited if chunk_id in chunks]
    reasons += [f"cites {chunk_id}, which does not exist" for chunk_id in cited if chunk_id not in chunks]
    who = ", ".join(audiences)
    reasons += [f"cites {c.chunk_id}, which {who} may not see" for c in known if c.audience not in audiences]
    if not known:
        return tuple(reasons)
    source_text = "\n".join(c.text for c in known)
    missing = sorted(numbers_of(text) - numbers_of(source_text))
    if missing:
        reasons.append(f"numbers not in the cited text: {', '.join(missing)}")
    words = content_words(text)
    share = len(words & content_words(source_text)) / len(words) if words else 0.0
    if share < min_overlap:
        reasons.append(f"shares {share:.2f} of its words with the cited text (needs {min_overlap:.2f})")
    return tuple(reasons)
