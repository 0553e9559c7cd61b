"""Light words: verbs that only link a thing to what it has, takes or needs ("carries", "includes", "has", "takes"),
adverbs that only add or persist ("also", "still", "too") and general nouns that point at a time or thing without
naming one ("from the moment", "at the point"). They carry no claim of their own: one said for another, or for the
span's word in their place, is a rewording."""
import functools

from answers.pipeline.text.tokens import TokenizerConfig, significant_terms

# The verbs of having and containing, and the light verbs English builds predicates with ("take time", "get access",
# "make a request", "give access", "put a limit"), in their forms; the additive and continuative adverbs; and the
# general nouns ("the moment", "the point", "a way").
LIGHT_WORDS = frozenset(
    """
    have has had having include includes included including contain contains contained containing carry carries
    carried carrying hold holds held holding take takes took taken taking get gets got
    gotten getting give gives gave given giving make makes made making put puts putting need needs needed
    also still too additionally likewise even
    moment moments point thing things way ways
    """.split()  # noqa: SIM905 (a word list reads best as one string)
)


@functools.lru_cache(maxsize=8)
def light_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the light words as the tokenizer reads them."""
    return frozenset(term for word in LIGHT_WORDS for term in significant_terms(word, tokenizer))
