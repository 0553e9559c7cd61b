"""What a question asks: the terms an answering sentence must cover, and whether it wants a quantity."""
import re

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.tokens import significant_terms

# Words that only say what kind of answer is wanted ("how long", "how many") carry no content to match.
ASKS_QUANTITY = re.compile(
    r"\b(how\s+(?:many|long|much|often|soon|fast|large|big|quickly)|when|what\s+time|(?:which|what)\s+year)\b", re.I
)
# Light verbs of a question ("how long does it take") say nothing a sentence must repeat.
_QUESTION_FILLER = re.compile(r"\b(take|takes|taking|took|get|gets|tell|know|happen|happens|mean|means)\b", re.I)
# Nouns that ask for an amount: "what discount", "what is the price".
_ASKS_AMOUNT = re.compile(r"\b(discount|price|prices|cost|costs|fee|fees|percentage|quota|timeout|uptime)\b", re.I)
ASKS_SEVERAL = re.compile(r"\b(and|both|each|all|list|compare)\b|,", re.I)


def question_terms(question: str, *, config: PipelineConfig) -> list[str]:
    """The question's significant terms, without the words that only ask for a quantity."""
    return significant_terms(_QUESTION_FILLER.sub(" ", ASKS_QUANTITY.sub(" ", question)), config.tokenizer)


def wants_quantity(question: str) -> bool:
    """Whether the question asks for a number, a duration, a date or an amount."""
    return bool(ASKS_QUANTITY.search(question) or _ASKS_AMOUNT.search(question))


def sentence_coverage(sentence: str, terms: list[str], *, config: PipelineConfig) -> float:
    """The share of the question's terms that the sentence contains."""
    if not terms:
        return 0.0
    return len(set(terms) & set(significant_terms(sentence, config.tokenizer))) / len(set(terms))
