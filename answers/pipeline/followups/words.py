"""The closed word lists and small text helpers the follow-up rules share."""
import re

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.tokens import tokenize
from answers.pipeline.topics import DETERMINERS

DO = frozenset({"do", "does", "did"})  # do-support: the word after the subject is the verb
DEGREE = frozenset({"long", "often", "much", "many", "soon", "fast", "quickly"})  # "how long", "how fast"
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "ones"})
# Predicate words that say a clause holds ("is that *available* on ...", "does that *work* for ...").
PREDICATES = frozenset({"available", "possible", "supported", "true", "allowed", "included", "required", "offered",
                        "work", "works", "apply", "applies", "happen", "valid", "free", "enabled", "needed", "hold"})
# Closed-class words that can follow a pronoun "one" as an adverb, not as its noun ("use one *twice*").
ADVERBS = frozenset({"twice", "again", "later", "instead", "anymore", "first", "back", "up", "off", "out", "away",
                     "now", "too", "more", "here", "there", "yet", "still", "once", "already"})
# Words that open a clause: an antecedent in the question stands before one of them. "without" opens a clause of
# its own, finite or not ("can I preview an old version *without* restoring it?": the version is its antecedent).
CLAUSE_OPENERS = frozenset({"if", "when", "after", "before", "once", "until", "unless", "because", "while", "and",
                            "but", "so", "since", "whether", "without"})
PRO_VERBS = frozenset({"do", "does", "did", "doing"})  # "do that": the previous question's verb phrase
TEMPORAL = frozenset({"after", "before", "since", "until", "like"})  # "after that", "like this"
END = re.compile(r"[?.!\s]+$")


def terms_of(text: str, config: PipelineConfig) -> list[str]:
    """The text's words as the index and the gates tokenize them."""
    return tokenize(text, config.tokenizer)


def bare_phrase(phrase: str) -> str:
    """The phrase without its determiner ("a share link" -> "share link")."""
    first, _, rest = phrase.partition(" ")
    return rest if first.lower() in DETERMINERS and rest else phrase
