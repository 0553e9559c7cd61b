"""The held-out draw: a third of each category, fixed by the seed and the ids, whatever the order of the file."""
from answers.evaluation.golden import GoldenCase
from answers.evaluation.split import held_out_ids


def cases(category: str, n: int) -> list[GoldenCase]:
    return [GoldenCase(f"{category}-{i:02}", "Why?", "public", "answered", (), (), category=category) for i in range(n)]


def test_a_third_of_each_category_is_drawn():
    drawn = held_out_ids(cases("howto", 9) + cases("field", 10) + cases("unanswerable", 2))

    assert sum(i.startswith("howto-") for i in drawn) == 3
    assert sum(i.startswith("field-") for i in drawn) == 3  # round(10 / 3)
    assert sum(i.startswith("unanswerable-") for i in drawn) == 1  # round(2 / 3)


def test_the_draw_depends_on_the_ids_and_seed_not_on_the_order():
    all_cases = cases("howto", 12) + cases("field", 12)

    assert held_out_ids(all_cases) == held_out_ids(list(reversed(all_cases)))
    assert held_out_ids(all_cases, seed=1) != held_out_ids(all_cases, seed=2)
