"""What earlier turns of a conversation were about: the words of a question by role, and the topic phrases of the
last turns, ranked by how much the previous answer and its cited passages repeat them (used by followups.py).

No part-of-speech tagging: closed word lists (question words, auxiliaries, subjects, determiners, prepositions) and
word order stand in for it. The word right after "I/we/you" is taken for a verb ("how do I *change* it"), the word
after "which/what/how many" for the asked-for noun ("which *plan*"), a word with a capital that does not open the
question for a name ("Team", "iOS").
"""
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, tokenize

_WORD = re.compile(r"[^\W_](?:[\w'’]*[^\W_])?(?:-[^\W_]+)*")
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})
AUXILIARIES = frozenset({
    "is", "are", "was", "were", "am", "be", "been", "do", "does", "did", "can", "could", "will", "would", "should",
    "shall", "may", "might", "must", "has", "have", "had", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't",
    "didn't", "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "hasn't", "haven't",
})
CONJUNCTIONS = frozenset({"and", "or", "but", "also", "plus"})
PREPOSITIONS = frozenset({
    "on", "for", "in", "with", "at", "from", "by", "over", "via", "under", "without", "within", "during", "after",
    "before",
})
DETERMINERS = frozenset({
    "the", "a", "an", "any", "my", "our", "your", "their", "its", "this", "that", "these", "those", "each", "every",
    "some",
})
SUBJECTS = frozenset({"i", "we", "you"})
REFERRING = frozenset({"it", "its", "that", "this", "they", "them", "their", "one", "there"})
# Verbs a question asks with that carry no topic ("how long does it take", "what happens").
LIGHT_VERBS = frozenset({"take", "takes", "get", "gets", "happen", "happens", "mean", "means", "need", "needs", "work",
                         "works"})
_ARTICLES = frozenset({"the", "a", "an", "my", "our", "your"})


class TurnLike(Protocol):
    """What a topic is looked for in: an earlier turn (followups.Turn)."""

    @property
    def question(self) -> str: ...
    @property
    def answer_sentences(self) -> tuple[str, ...]: ...
    @property
    def cited_texts(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Word:
    """A word of a text as written, lower-cased, and where it stands."""

    text: str
    lower: str
    start: int
    end: int


@dataclass(frozen=True)
class Topic:
    """A candidate topic phrase as it will be written in ("a share link"), its rank score, and its number."""

    phrase: str
    score: float
    plural: bool


def words_of(text: str) -> list[Word]:
    """The words of a text with their offsets ("two-factor", "sign-on" and "don't" stay one word)."""
    return [Word(m.group(), m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def is_content(word: Word) -> bool:
    """Whether the word can name a thing: not a stop word, question word, auxiliary, subject or pronoun."""
    w = word.lower
    return not (w in ENGLISH_STOP_WORDS or w in AUXILIARIES or w in QUESTION_WORDS or w in REFERRING or w in SUBJECTS)


def is_name(word: Word, index: int) -> bool:
    """A word written with a capital that is not the text's first word (nor "I"): "Team", "iOS", "macOS"."""
    return index > 0 and word.lower != "i" and any(c.isupper() for c in word.text)


def is_plural(text: str) -> bool:
    """Whether a phrase's last word looks plural ("links", not "class")."""
    last = text.split()[-1].lower() if text.split() else ""
    return last.endswith("s") and not last.endswith("ss")


def stem_of(word: Word, config: PipelineConfig) -> str:
    """The word's index term ("" for a stop word)."""
    return " ".join(tokenize(word.text, config.tokenizer))


def not_topic(words: list[Word]) -> set[int]:
    """Indexes of words that say what is asked, not what about: question words and their noun ("which plan",
    "how many members", "how long"), auxiliaries, light verbs, and the verb right after a subject ("how do I
    *change*") or after the asked-for noun when no auxiliary comes first ("which plan *includes*")."""
    skipped: set[int] = set()
    for i, word in enumerate(words):
        w, has_next = word.lower, i + 1 < len(words)
        if w in QUESTION_WORDS or w in AUXILIARIES or w in LIGHT_VERBS:
            skipped.add(i)
        if has_next and (w in SUBJECTS or w == "how"):
            skipped.add(i + 1)
        if w in ("which", "what", "many", "much") and has_next and is_content(words[i + 1]):
            skipped.add(i + 1)
            if i + 2 < len(words) and words[i + 2].lower not in AUXILIARIES and is_content(words[i + 2]):
                skipped.add(i + 2)
    return skipped


def _runs(words: list[Word], skipped: set[int]) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of content words that may name the topic."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for i in range(len(words) + 1):
        usable = i < len(words) and i not in skipped and is_content(words[i])
        if usable and start is None:
            start = i
        elif not usable and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _count(phrase: list[str], corpus: list[list[str]]) -> int:
    """How often the stemmed phrase occurs, word after word, in the stemmed texts."""
    n = len(phrase)
    return sum(1 for tokens in corpus for i in range(len(tokens) - n + 1) if tokens[i : i + n] == phrase)


def topics_of(
    history: Sequence[TurnLike], *, config: PipelineConfig, turns: int = 2, max_words: int = 4
) -> list[Topic]:
    """Candidate topic phrases of the last `turns` turns, best first: the longest phrases of their questions that the
    previous answer and its cited passages repeat, each also as a cited title or heading extends it ("link" ->
    "share links"); the latest turn's ahead of older ones."""
    recent = list(history)[-turns:]
    latest = recent[-1]
    corpus = [[stem_of(w, config) for w in words_of(text)] for text in (*latest.cited_texts, *latest.answer_sentences)]
    headings = _headings(latest.cited_texts)
    found: list[Topic] = []
    for age, turn in enumerate(reversed(recent)):
        words = words_of(turn.question)
        for start, end in _runs(words, not_topic(words)):
            for i in range(start, end):
                for j in range(i + 1, min(end, i + max_words) + 1):
                    stems = [stem_of(w, config) for w in words[i:j]]
                    if not all(stems):
                        continue
                    repeated = _count(stems, corpus)
                    # Length first (a phrase the question wrote out), then how often the passages repeat it.
                    score = (len(stems) * (1.0 if repeated else 0.8) + 0.1 * min(repeated, 5)
                             + (0.05 if j == end else 0)) / (1 + age)
                    if i == start and (extended := _extension(stems, headings, config)):
                        extended = as_in_text(extended, latest.cited_texts)
                        found.append(Topic(extended, score + 0.9 / (1 + age), is_plural(extended)))
                    phrase = turn.question[words[i].start : words[j - 1].end]
                    if i > 0 and words[i - 1].lower in _ARTICLES:
                        phrase = f"{words[i - 1].text} {phrase}"
                    found.append(Topic(phrase, score, is_plural(phrase)))
    found.sort(key=lambda t: -t.score)
    return found


def _is_heading(line: str) -> bool:
    return 0 < len(line.split()) <= 6 and not line.rstrip().endswith((".", ":"))


def _headings(texts: Sequence[str]) -> list[list[Word]]:
    """The short lines of the cited passages: their source titles and headings ("Share links")."""
    return [words_of(line) for text in texts for line in text.splitlines() if _is_heading(line)]


def _extension(stems: list[str], headings: list[list[Word]], config: PipelineConfig) -> str:
    """The phrase as a title or heading writes it with the content word it opens with or puts after an article
    ("link" -> "Share links"; not a gerund: "Restoring files"); else ""."""
    n = len(stems)
    seen: Counter[str] = Counter()
    for words in headings:
        tokens = [stem_of(w, config) for w in words]
        for i in range(1, len(tokens) - n + 1):
            before = words[i - 1]
            opens = i == 1 or words[i - 2].lower in DETERMINERS
            if (tokens[i : i + n] == stems and tokens[i - 1] and is_content(before) and opens
                    and not before.lower.endswith("ing")):
                seen[" ".join(w.text for w in words[i - 1 : i + n])] += 1
    return seen.most_common(1)[0][0] if seen else ""


def as_in_text(phrase: str, texts: Sequence[str]) -> str:
    """A heading's words in the case the passages' sentences mostly write them in ("Share links" -> "share links";
    "Lumora" stays)."""
    lower: Counter[str] = Counter()
    for text in texts:
        for line in text.splitlines():
            if not _is_heading(line):
                for w in words_of(line):
                    lower[w.lower] += 1 if w.text.islower() else -1
    return " ".join(word.lower() if lower[word.lower()] > 0 else word for word in phrase.split())


def cited_title(cited_texts: Sequence[str]) -> str:
    """The title of the first cited passage when it is short ("Two-factor authentication"); else ""."""
    first = cited_texts[0].strip() if cited_texts else ""
    title = first.splitlines()[0] if first else ""
    return as_in_text(title, cited_texts) if 0 < len(title.split()) <= 4 else ""


def key_term(texts: Sequence[str], exclude: set[str], *, config: PipelineConfig) -> str:
    """The word the texts repeat most (the first to appear, on a tie: a title's) that is not in `exclude` ("trash")."""
    counts: Counter[str] = Counter()
    written: dict[str, str] = {}
    for text in texts:
        for word in words_of(text):
            stem = stem_of(word, config)
            if stem and " " not in stem and stem not in exclude and not word.text[0].isdigit():
                counts[stem] += 1
                written.setdefault(stem, word.lower)
    return written[counts.most_common(1)[0][0]] if counts else ""
