"""A thin question the rules take for a standalone one, asked of the caller's corpus: does it find its own material,
or only with the previous turn's topic? (The caller injects the lookup, built from what it may see.)

The question's terms are those the no_material gate counts (`question_terms`); a question of more than
`max_thin_terms` + 1 of them is left to the rules. It finds its own material when one passage holds all of them,
whether a search for them alone or one with the previous question's terms brings it up, and it asks for something
the documents lack when one of its terms is in no passage the caller may see ("Can I pay with Bitcoin?": no
follow-up, a question they cannot answer). It needs the previous topic when a search with the previous question's
terms finds a passage holding every question term some passage holds at all together with at least half of the
topic's terms (two or more), and the previous answer's cited passages hold those question terms too: the material is
where the conversation already is. The rewrite puts the previous question's words that passage holds beside the
question, from the first to the last, in the form continuation.py writes ("<question> (<those words>)?").
"""
import math
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.continuation import with_passage
from answers.pipeline.followups.turns import FollowupRules, Lookup, Turn
from answers.pipeline.text.questions import question_terms
from answers.pipeline.text.tokens import significant_terms, tokenize
from answers.pipeline.topics import words_of

MIN_TOPIC_TERMS = 2  # a passage that shares one word with the previous question is no sign of its topic


def topic_needed(
    question: str, history: Sequence[Turn], lookup: Lookup | None, *, config: PipelineConfig, rules: FollowupRules
) -> tuple[str, str] | None:
    """The question with the previous topic beside it when only with that topic does it find its material (the
    module's rule); None when it finds its own, asks for what the documents lack, or no lookup is given."""
    if lookup is None or not history:
        return None
    asked = question_terms(question, config=config)
    if not asked or len(asked) > rules.max_thin_terms + 1:
        return None
    alone = lookup(asked)
    if any(all(term in passage for term in asked) for passage in alone):
        return None  # it finds its own material
    if not all(any(term in passage for passage in lookup([term])) for term in asked):
        return None  # it asks for something the caller's documents do not hold
    found = {term for passage in alone for term in asked if term in passage}
    previous = history[-1].question
    topic = [term for term in question_terms(previous, config=config) if term not in asked]
    needed = max(MIN_TOPIC_TERMS, math.ceil(len(topic) / 2))
    if not found or len(topic) < needed:
        return None
    joint = lookup(asked + topic)
    if any(all(term in passage for term in asked) for passage in joint):
        return None  # its own material, ranked below the first few: the topic only brought it up
    cited = {frozenset(significant_terms(text, config.tokenizer)) for text in history[-1].cited_texts}
    if not any(found <= passage for passage in cited):
        return None  # the previous answer's material does not hold the question's terms
    for passage in joint:
        if (found <= passage and sum(term in passage for term in topic) >= needed
                and (words := _held_span(previous, passage, config))):
            return with_passage(question, [words]), "reference: only the previous topic finds its material"
    return None


def _held_span(previous: str, passage: frozenset[str], config: PipelineConfig) -> str:
    """The previous question's words from the first to the last whose term the passage holds."""
    held = [w for w in words_of(previous) if any(term in passage for term in tokenize(w.text, config.tokenizer))]
    return previous[held[0].start : held[-1].end] if held else ""
