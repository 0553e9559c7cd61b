"""The budget table (`evaluate --budgets 300,500,700,1200`): every case asked at each context budget
(RAG_CONTEXT_TOKENS), with the blocks kept and dropped and the tokens used at each, and for each case the smallest
budget whose answer (kind of reply, sentences and citations) is the one given at the largest; so the default budget is
chosen from evidence and its margin is visible."""
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from asgiref.sync import async_to_sync

from answers.evaluation.golden import GoldenCase
from answers.pipeline.config import PipelineConfig
from answers.services import Caller, GeneratorFactory, ask

CHANNEL = "eval"


@dataclass(frozen=True)
class BudgetAnswer:
    """What one case got at one budget: the reply as compared across budgets, and what the context held."""

    case_id: str
    kind: str
    sentences: tuple[tuple[str, tuple[str, ...]], ...]  # each sentence with its cited chunk ids
    kept: int
    dropped: int  # retrieved chunks not issued (over budget, per source, duplicate or past the block limit)
    tokens: int

    @property
    def reply(self) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """What must match for two budgets to give the same answer."""
        return (self.kind, self.sentences)


@dataclass(frozen=True)
class BudgetRow:
    """One budget's totals over the cases."""

    budget: int
    cases: int
    kept: int
    dropped: int
    tokens: int
    same_as_largest: int


@dataclass(frozen=True)
class BudgetTable:
    """The rows by budget and, per case, the smallest budget giving the largest budget's answer."""

    rows: tuple[BudgetRow, ...]
    smallest: tuple[tuple[str, int], ...]


def parse_budgets(text: str) -> tuple[int, ...]:
    """ "300,500,700" -> (300, 500, 700), sorted and distinct; a value that is not a positive integer is an error."""
    values = sorted({int(part) for part in text.split(",") if part.strip()})
    if not values or values[0] < 1:
        raise ValueError("budgets are positive integers separated by commas, e.g. 300,500,700,1200")
    return tuple(values)


def budget_table(answers: Mapping[int, Sequence[BudgetAnswer]]) -> BudgetTable:
    """Summarise the answers at each budget against those at the largest."""
    budgets = sorted(answers)
    largest = {a.case_id: a.reply for a in answers[budgets[-1]]}
    rows = tuple(
        BudgetRow(
            budget=budget,
            cases=len(answers[budget]),
            kept=sum(a.kept for a in answers[budget]),
            dropped=sum(a.dropped for a in answers[budget]),
            tokens=sum(a.tokens for a in answers[budget]),
            same_as_largest=sum(a.reply == largest[a.case_id] for a in answers[budget]),
        )
        for budget in budgets
    )
    smallest = []
    for case_id, reply in largest.items():
        same = [b for b in budgets if _reply(answers[b], case_id) == reply]
        # The smallest budget from which every larger one gives the same answer.
        stable = budgets[-1]
        for budget in reversed(budgets):
            if budget not in same:
                break
            stable = budget
        smallest.append((case_id, stable))
    return BudgetTable(rows=rows, smallest=tuple(smallest))


def table_lines(table: BudgetTable) -> list[str]:
    """The table as terminal lines."""
    lines = ["budget  cases  blocks kept  blocks dropped  tokens used  mean tokens  same answer as largest"]
    for row in table.rows:
        mean = row.tokens / row.cases if row.cases else 0.0
        lines.append(
            f"{row.budget:>6}  {row.cases:>5}  {row.kept:>11}  {row.dropped:>14}  {row.tokens:>11}  {mean:>11.1f}  "
            f"{row.same_as_largest}/{row.cases}"
        )
    lines.append("")
    lines.append("smallest budget giving the largest budget's answer: case count by budget")
    for row in table.rows:
        ids = [case_id for case_id, budget in table.smallest if budget == row.budget]
        lines.append(f"{row.budget:>6}  {len(ids):>4}  {', '.join(ids) if row.budget != table.rows[0].budget else ''}")
    return lines


def observe_budgets(
    cases: Sequence[GoldenCase], budgets: Sequence[int], *, config: PipelineConfig, make_generator: GeneratorFactory
) -> dict[int, tuple[BudgetAnswer, ...]]:
    """Ask every case at each budget, the other thresholds as configured."""
    return {
        budget: async_to_sync(_observe_all)(cases, dataclasses.replace(config, context_tokens=budget), make_generator)
        for budget in budgets
    }


async def _observe_all(
    cases: Sequence[GoldenCase], config: PipelineConfig, make_generator: GeneratorFactory
) -> tuple[BudgetAnswer, ...]:
    return tuple([await _observe(case, config, make_generator) for case in cases])


async def _observe(case: GoldenCase, config: PipelineConfig, make_generator: GeneratorFactory) -> BudgetAnswer:
    stream = await ask(
        caller=Caller(limited=False), question=case.question, channel=CHANNEL, audiences=case.audiences,
        config=config, make_generator=make_generator, record=False,
    )
    async for _event in stream:
        pass
    summary = stream.summary
    meta = summary.meta
    kind = summary.status if summary.status in ("answered", "incomplete") else (
        summary.refusal.reason if summary.refusal else "failed"
    )
    kept = len(meta.blocks) if meta else 0
    return BudgetAnswer(
        case_id=case.id,
        kind="answered" if kind == "incomplete" else kind,
        sentences=tuple((s.text, tuple(c.chunk_id for c in s.citations)) for s in summary.sentences),
        kept=kept,
        dropped=max(len(meta.retrieved) - kept, 0) if meta else 0,
        tokens=meta.context_tokens if meta else 0,
    )


def _reply(answers: Sequence[BudgetAnswer], case_id: str) -> object:
    return next((a.reply for a in answers if a.case_id == case_id), None)
