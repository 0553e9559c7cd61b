"""The held-out part of a golden set: a third of the cases of each category, drawn with a fixed seed before any run.

The draw is recorded in the golden file itself (`"held_out": true`), so it never changes when cases are reordered
or the reader is tuned; `held_out_ids` is how it was drawn, and a test checks the files still match it.
"""
import random
from collections.abc import Sequence

from answers.evaluation.golden import GoldenCase

SEED = 17  # the number: fixed once, before the first run of any real set
SHARE = 1 / 3


def held_out_ids(cases: Sequence[GoldenCase], *, seed: int = SEED, share: float = SHARE) -> frozenset[str]:
    """The ids drawn for the held-out part: round(share * n) of each category's n cases, by a seeded shuffle of
    their sorted ids (so the draw depends on the ids only, not on the order of the file)."""
    by_category: dict[str, list[str]] = {}
    for case in cases:
        by_category.setdefault(case.category, []).append(case.id)
    drawn: set[str] = set()
    for category in sorted(by_category):
        ids = sorted(by_category[category])
        random.Random(f"{seed}:{category}").shuffle(ids)
        drawn.update(ids[: round(share * len(ids))])
    return frozenset(drawn)

