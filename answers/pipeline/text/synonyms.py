"""The one table of synonyms: word forms that say the same thing in the help pages' sense, so that one written for
the other is a rewording, never a swap ("Storage is shared across the workspace" for "pooled across")."""
import functools

from answers.pipeline.text.tokens import TokenizerConfig, significant_terms

SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("pooled", "pool", "pools", "shared", "share", "shares"),
    ("whole", "entire"),
    ("anywhere", "everywhere"),
    ("extend", "extends", "extended", "lengthen", "lengthens", "lengthened", "prolong", "prolongs"),
    ("begin", "begins", "start", "starts", "started", "begun", "began"),
    ("finish", "finishes", "finished", "end", "ends", "ended"),
    ("choose", "chooses", "chose", "chosen", "pick", "picks", "picked"),
)


def same_meaning(said: str, stated: str, tokenizer: TokenizerConfig) -> bool:
    """Whether two terms (as the tokenizer reads them) are forms of one entry of the table, or the same term."""
    return said == stated or any(said in group and stated in group for group in _groups(tokenizer))


def synonym_terms(terms: frozenset[str], tokenizer: TokenizerConfig) -> frozenset[str]:
    """The terms of the synonyms of `terms` ("lengthen" -> "extend"), so that a span saying the claim in them is
    found and shares its terms."""
    return frozenset(term for group in _groups(tokenizer) if group & terms for term in group) - terms


@functools.lru_cache(maxsize=8)
def tabled_terms(tokenizer: TokenizerConfig) -> frozenset[str]:
    """Every term of the table: a term outside it has no synonym, so it means only itself."""
    return frozenset(term for group in _groups(tokenizer) for term in group)


@functools.lru_cache(maxsize=8)
def _groups(tokenizer: TokenizerConfig) -> tuple[frozenset[str], ...]:
    """Each entry as terms: read once per tokenizer."""
    return tuple(frozenset(term for form in group for term in significant_terms(form, tokenizer)) for group in SYNONYMS)
