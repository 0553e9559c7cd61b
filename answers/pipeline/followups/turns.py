"""What the follow-up resolver reads and returns: an earlier turn, the resolution, and the resolver's limits."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Turn:
    """One earlier turn of a conversation: the question it answered (its standalone form), the sentences shown,
    and the text of the passages they cited."""

    question: str
    answer_sentences: tuple[str, ...] = ()
    cited_texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolution:
    """What will be answered: the question itself (resolved False) or its standalone rewrite, and how it was found."""

    question: str
    resolved: bool
    note: str = ""


@dataclass(frozen=True)
class FollowupRules:
    """The resolver's limits."""

    max_fragment_terms: int = 3  # a longer "what about X" or "for X" is a question of its own
    max_thin_terms: int = 2  # a definite or conditional question with more terms than this is left alone
    history_turns: int = 2  # how many earlier turns the topic is looked for in
    max_topic_words: int = 4


RULES = FollowupRules()
