"""The one table of opposites (§5.6): pairs of word forms or phrases of which one side states the other's opposite.

Rules callers rely on:

- A pair `by_word` is read by the antonym check of bounds.py, word by word, against the span's sentence that holds
  most of the claim ("open on weekends" against "closed on weekends"), and by `wording.antonym_terms` so that a span
  stating the opposite is found.
- Every other pair is read by the contradiction check (contradictions.py), phrase by phrase, where the opposite
  qualifies the same words on both sides ("resumes where it stopped" against "starts over from the beginning").
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Opposite:
    """Two sides, each its forms (words or phrases), and which check reads them."""

    one: tuple[str, ...]
    other: tuple[str, ...]
    by_word: bool = False


OPPOSITES: tuple[Opposite, ...] = (
    Opposite(("open", "opens", "opened"), ("closed", "close", "closes"), by_word=True),
    Opposite(("free",), ("paid",), by_word=True),
    Opposite(("allowed", "allow", "allows"), ("blocked", "block", "blocks"), by_word=True),
    Opposite(("enabled", "enable", "enables"), ("disabled", "disable", "disables"), by_word=True),
    Opposite(("required", "require", "requires", "mandatory"), ("optional",), by_word=True),
    Opposite(("included", "include", "includes"), ("excluded", "exclude", "excludes"), by_word=True),
    Opposite(("before",), ("after",), by_word=True),
    Opposite(("minimum",), ("maximum",), by_word=True),
    Opposite(("more",), ("less", "fewer"), by_word=True),
    Opposite(("earlier", "earliest"), ("later", "latest")),
    Opposite(("older", "oldest"), ("newer", "newest")),
    Opposite(("increase", "increases", "increased", "raise", "raises", "raised"),
             ("decrease", "decreases", "decreased", "reduce", "reduces", "reduced", "lower", "lowers", "lowered")),
    Opposite(("automatically",), ("manually", "by hand")),
    Opposite(("public",), ("private",)),
    Opposite(("upgrade", "upgrades", "upgraded", "upgrading"),
             ("downgrade", "downgrades", "downgraded", "downgrading")),
    Opposite(("at least",), ("at most", "up to", "no more than")),
    Opposite(("hidden", "hide", "hides"), ("appear", "appears", "visible", "shown")),
    Opposite(("only",), ("also", "every", "all", "both")),
    Opposite(("optional",), ("must",)),
    Opposite(("same",), ("separate", "different", "their own", "its own")),
    Opposite(("cancel", "cancels", "cancelled", "canceled"), ("carry on", "carries on", "continue", "continues")),
    Opposite(("include", "includes", "included", "including"), ("left out", "leaves out", "omit", "omits", "omitted")),
    Opposite(("kept", "keeps", "keep", "retained", "retains"),
             ("erased", "erases", "deleted", "deletes", "removed", "removes")),
    Opposite(("paused", "pauses", "pause"), ("carry on", "carries on", "continue", "continues")),
    Opposite(("rejected", "rejects", "reject"), ("accepted", "accepts", "accept")),
    Opposite(("still",), ("replaced", "removed", "retired", "discontinued")),
    Opposite(("outside",), ("through", "inside")),
    Opposite(("at all times", "always", "around the clock"),
             ("during office hours", "during business hours", "during working hours", "only during")),
    Opposite(("on weekends", "at weekends", "on the weekend", "at the weekend"),
             ("on working days", "on weekdays", "on business days", "monday to friday")),
    Opposite(("left",), ("right",)),
    Opposite(("active",), ("expired", "inactive")),
    Opposite(("replaces", "replace", "replaced", "instead of", "in place of"), ("in addition to", "as well as")),
)


def word_pairs() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The pairs the antonym check reads word by word."""
    return tuple((pair.one, pair.other) for pair in OPPOSITES if pair.by_word)


def phrase_pairs() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The pairs the contradiction check reads phrase by phrase."""
    return tuple((pair.one, pair.other) for pair in OPPOSITES if not pair.by_word)


def opposite_words() -> frozenset[str]:
    """Every word of the table's one-word forms, either side: words the opposite checks read, not the swap check."""
    return frozenset(form for pair in OPPOSITES for form in (*pair.one, *pair.other) if " " not in form)
