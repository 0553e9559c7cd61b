"""The budget table: what each context budget keeps, and the smallest budget giving the largest one's answer."""
import pytest

from answers.evaluation.budgets import BudgetAnswer, budget_table, parse_budgets, table_lines

SAID = (("Refunds take 5 days.", ("refund-v1-c01",)),)


def answer(case_id: str, kind: str = "answered", sentences=SAID, kept: int = 3, tokens: int = 200) -> BudgetAnswer:
    return BudgetAnswer(case_id, kind, sentences if kind == "answered" else (), kept, 8 - kept, tokens)


def test_budgets_are_parsed_sorted_and_distinct():
    assert parse_budgets("1200, 300,500,300") == (300, 500, 1200)


@pytest.mark.parametrize("text", ["", "0,300", "300,abc"])
def test_a_budget_that_is_not_a_positive_integer_is_an_error(text):
    with pytest.raises(ValueError):
        parse_budgets(text)


def test_each_case_gets_the_smallest_budget_from_which_the_answer_stays_the_largest_ones():
    table = budget_table({
        300: [answer("a", "unsupported", kept=1, tokens=250), answer("b"), answer("c")],
        500: [answer("a", kept=2, tokens=450), answer("b", "unsupported"), answer("c")],
        1200: [answer("a", kept=3, tokens=700), answer("b"), answer("c", sentences=(("Other.", ("x",)),))],
    })

    assert dict(table.smallest) == {"a": 500, "b": 1200, "c": 1200}  # b matched at 300 but not at 500
    assert [(r.budget, r.kept, r.dropped, r.tokens, r.same_as_largest) for r in table.rows] == [
        (300, 7, 17, 650, 1), (500, 8, 16, 850, 1), (1200, 9, 15, 1100, 3),
    ]


def test_the_table_lines_name_the_cases_that_need_more_than_the_smallest_budget():
    table = budget_table({300: [answer("a", "unsupported"), answer("b")], 700: [answer("a"), answer("b")]})

    lines = table_lines(table)

    assert lines[1].split()[:5] == ["300", "2", "6", "10", "400"]
    assert lines[-1].split() == ["700", "1", "a"]
