"""A follow-up that goes on reading the previous answer's cited passage (§6a): "who can pick a different date?" after
"How long do share links last by default?", whose passage goes on "The person who creates a link can choose a
different expiry date".

Structural, not a list of follow-up wordings: the question names nothing of what the passage is about (no word of its
title or headings, none of the previous question), yet one sentence of that passage holds most of its words. Then the
question is about that passage, and its rewrite is the question with the passage's heading path after it ("Who can
pick a different date, about link expiry in share links?"), so retrieval finds the same section again. A question that
names its own subject is left alone: it shares a word with the title, a heading or the previous question, or it is
complete on its own terms (more than `max_terms` terms, or a name of its own such as "Lumora" or "FIDO2").
"""
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.questions import question_terms
from answers.pipeline.text.sentences import is_heading, passage_sentences
from answers.pipeline.text.tokens import significant_terms, tokenize
from answers.pipeline.topics import MODALS, QUESTION_WORDS, Word, is_content, is_name, words_of


@dataclass(frozen=True)
class ContinuationRules:
    """When a question counts as going on with the previous passage."""

    min_share: float = 0.5  # of the question's terms that one sentence of the passage must hold
    max_terms: int = 4  # a question with more terms than this says enough on its own, unless
    min_long_share: float = 2 / 3  # of its terms one sentence of the passage holds


CONTINUATION = ContinuationRules()

# Adjectives that presuppose a thing named before: "a *different* date", "the *second* copy", "the *other* one".
ALTERNATIVES = frozenset({"other", "different", "another", "same", "else", "second", "extra", "next", "previous"})
_DEFINITE = frozenset({"the", "those", "these"})  # not "that": after a noun it opens a clause
_ANCHORING = frozenset({"that", "which", "who", "whose", "where", "of"})  # "the members *that* use the most space"


def heading_path(cited_text: str) -> tuple[tuple[str, ...], str]:
    """The title and headings an indexed passage opens with (each once, in order) and the text after them."""
    lines = cited_text.strip().splitlines()
    path: list[str] = []
    consumed = 0
    for line in (line.strip() for line in lines):
        if line and not is_heading(line):
            break
        consumed += 1
        if line and line.lower() not in (p.lower() for p in path):
            path.append(line)
    return tuple(path), "\n".join(lines[consumed:])


def continued_passage(
    question: str, previous: str, cited_texts: Sequence[str], *, config: PipelineConfig,
    rules: ContinuationRules = CONTINUATION,
) -> tuple[str, ...]:
    """The heading path of the cited passage the question goes on reading; () when it names its own subject or no
    sentence of a cited passage holds most of its terms."""
    terms = set(question_terms(question, config=config))
    if not terms or terms & set(tokenize(previous, config.tokenizer)):
        return ()
    # A longer question says enough on its own unless one sentence of the passage writes most of it ("do the
    # unselected folders still show in the web app?": "Online-only folders still appear in the Lumora web app.")
    share = rules.min_share if len(terms) <= rules.max_terms else rules.min_long_share
    if not anchorless(words_of(question), cited_texts):
        return ()
    for text in cited_texts:
        path, body = heading_path(text)
        named = {t for line in path for t in significant_terms(line, config.tokenizer)}  # remembered by text
        if not path or terms & named:
            return ()
        for sentence in passage_sentences(body):
            held = terms & set(significant_terms(sentence, config.tokenizer))
            if len(held) >= max(1, share * len(terms)):
                return path
    return ()


def anchorless(words: list[Word], cited_texts: Sequence[str]) -> bool:
    """Whether the question leans on something named before, never when it holds a name of its own: a modal with a
    subject and no verb ("can guests?", "who can?"), an adjective of otherness ("a different date"), a definite noun
    on its own ("does the folder need ...", not "the billing team", a compound the passages write, nor "the members
    that ...", which a clause pins down), or no more than one content word."""
    if any(is_name(w, i) for i, w in enumerate(words)):
        return False  # "What iOS version does the app require?": a name pins it down
    content = [w for w in words if is_content(w)]
    if len(content) <= 1 or any(w.lower in ALTERNATIVES for w in words):
        return True
    if words and words[-1].lower in MODALS or (words[0].lower in MODALS and len(content) == 1):
        return True
    written = " ".join(" ".join(text.lower().split()) for text in cited_texts)
    for i, word in enumerate(words[:-1]):
        if word.lower not in _DEFINITE or not is_content(words[i + 1]) or words[i + 1].lower in QUESTION_WORDS:
            continue
        following = words[i + 2] if i + 2 < len(words) else None
        if following is not None and following.lower in _ANCHORING:
            continue
        if following is None or not is_content(following) or f"{words[i + 1].lower} {following.lower}" not in written:
            return True
    return False


def with_passage(question: str, path: Sequence[str], texts: Sequence[str] = ()) -> str:
    """The question with the heading path it goes on from after it, as words a reader would write: ", about" the
    innermost heading, then "in" each heading around it out to the title ("Who can pick a different date, about link
    expiry in share links?"). A heading's capital first letter is only its place: it is lowered unless its first word
    is a name, which the passages' text (`texts` after their headings) writes capitalized after a lower-case word and
    never in lower case ("Lumora service level agreement" keeps its capital, "Billing and invoices" does not: "billing
    admins"), or holds a capital after its first letter ("API rate limits")."""
    written = " ".join(heading_path(text)[1] for text in texts)
    about = " in ".join(_as_written(heading, written) for heading in reversed(path))
    return f"{question.rstrip(' ?.!')}, about {about}?"


def _as_written(heading: str, written: str) -> str:
    """The heading with its first letter lowered unless its first word is a name (see `with_passage`)."""
    first = heading.split()[0] if heading.split() else ""
    if not first or not first[0].isupper() or any(c.isupper() for c in first[1:]):
        return heading
    lowered = re.search(rf"(?<![\w@./-]){re.escape(first.lower())}(?![\w@.-])", written)
    named = re.search(rf"[a-z,] {re.escape(first)}(?![\w@.-])", written)  # mid-sentence, not a sentence's first
    if named and not lowered:
        return heading
    return heading[0].lower() + heading[1:]
