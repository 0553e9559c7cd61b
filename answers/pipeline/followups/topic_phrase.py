"""The topic phrase a pronoun stands for, chosen from the last turns (topics.py) in the pronoun's number."""
import re
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups.turns import RULES, Turn
from answers.pipeline.followups.words import bare_phrase, terms_of
from answers.pipeline.topics import (
    DETERMINERS,
    LIGHT_VERBS,
    PREPOSITIONS,
    SUBJECTS,
    Topic,
    Word,
    is_content,
    plural_of,
    singular,
    stem_of,
    topics_of,
    words_of,
)

# The bonus of a phrase whose head a sentence writes with the rest of the pronoun's question, times the share held
SAYS_REST = 1.2
DISAGREES = 0.7  # the weight of a plural topic put in the singular for "it" ("invoices": an invoice)
UNATTESTED = 0.5  # the weight of a plural topic for "it" whose singular the texts never write
# Verbs and nouns of getting in touch: their object, or what "their" owns, is a person ("email them", "their address").
_CONTACTING = ("email", "contact", "reach", "call", "phone", "message", "write", "ask", "address", "number", "touch")


def best_topic(history: Sequence[Turn], *, plural: bool | None, config: PipelineConfig,
               verbs: frozenset[str] = frozenset(), rest: frozenset[str] = frozenset(), pluralize: bool = False,
               acted_on: bool = False, acts_itself: bool = False) -> str:
    """The best topic phrase of the last turns, of the number asked for when one has it; for a plural pronoun
    (`pluralize`), a thing named in the singular may be put in the plural."""
    topics = topics_of(history, config=config, turns=RULES.history_turns, max_words=RULES.max_topic_words,
                       verbs=verbs, acted_on=acted_on, acts_itself=acts_itself)
    if rest:
        topics = _said_of_rest(topics, history, rest, config)
    if plural is False:  # "it" for "personal access tokens": a personal access token, if the texts write one
        written = {w.lower for turn in history[-RULES.history_turns :]
                   for text in (turn.question, *turn.answer_sentences, *turn.cited_texts) for w in words_of(text)}
        topics = [t if not t.plural else _in_singular(t, written) for t in topics]
        topics.sort(key=lambda t: -t.score)
    elif plural:
        if pluralize:  # "them" for "a welcome kit": welcome kits, if the texts write the plural ("Kits are posted")
            written = {w.lower for turn in history[-RULES.history_turns :]
                       for text in (*turn.answer_sentences, *turn.cited_texts) for w in _nouns_written(text)}
            topics = sorted((t if t.plural else _in_plural(t, written) for t in topics), key=lambda t: -t.score)
        topics = [t for t in topics if t.plural] or topics
    return topics[0].phrase if topics else ""


def _said_of_rest(topics: list[Topic], history: Sequence[Turn], rest: frozenset[str],
                 config: PipelineConfig) -> list[Topic]:
    """The topics re-ranked by what the rest of the question says of its pronoun: a phrase whose head a passage or
    answer sentence writes with most of `rest` first ("does it have a dark theme?" after a question about the embed
    widget's accent colour: "The widget supports light and dark themes"), and a phrase whose head the question
    writes itself last (in "can they limit *links* to folders?" "they" are not the links)."""
    texts = [text for turn in history[-RULES.history_turns :] for text in (*turn.cited_texts, *turn.answer_sentences)]
    said = _said_with(texts, rest, config)
    scored = [Topic(t.phrase, t.score + (-SAYS_REST if (head := _head_stem(t.phrase, config)) in rest
                                         else SAYS_REST * said.get(head, 0.0)), t.plural) for t in topics]
    return sorted(scored, key=lambda t: -t.score)


def _said_with(texts: Sequence[str], rest: frozenset[str], config: PipelineConfig) -> dict[str, float]:
    """For each stem the sentences (not titles nor headings) write, the largest share of `rest` one sentence writes
    with it, when that is at least half of it and two words or more, or the one word of a question saying nothing else
    ("who posts them?": "Kits are posted by our print partner")."""
    said: dict[str, float] = {}
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
            if not sentence.rstrip().endswith((".", "!", "?")):
                continue  # a title or heading ("Buying more storage") says nothing of a thing
            stems = {stem_of(w, config) for w in words_of(sentence) if is_content(w)} - {""}
            held = len(rest & stems)
            if held < min(2, len(rest)) or held * 2 < len(rest):
                continue
            for stem in stems - rest:
                said[stem] = max(said.get(stem, 0.0), held / len(rest))
    return said


def _head_stem(phrase: str, config: PipelineConfig) -> str:
    """The stem of a phrase's head noun, its last word before a preposition or "of" ("a report of share links")."""
    words = bare_phrase(phrase).split()
    head = next((i - 1 for i, w in enumerate(words[1:], start=1) if w.lower() in PREPOSITIONS or w.lower() == "of"),
                len(words) - 1)
    return stem_of(words_of(words[head])[0], config) if words and words_of(words[head]) else ""


def _in_singular(topic: Topic, written: set[str]) -> Topic:
    """A plural topic for a singular pronoun: in the singular when the texts write its head so ("a token"), at a
    discount; else as it is, at a larger one ("support hours" for "it" is rather "support")."""
    words = topic.phrase.split()
    if singular(words[_head(words)].lower()) in written:
        return Topic(_singular_phrase(topic.phrase), topic.score * DISAGREES, False)
    return Topic(topic.phrase, topic.score * UNATTESTED, True)


def _in_plural(topic: Topic, written: set[str]) -> Topic:
    """A singular topic for a plural pronoun, a noun with at most two modifiers: in the plural, without its article,
    at a discount, when the texts write its head so; else as it is."""
    words = bare_phrase(topic.phrase).split()
    head = _head(words)
    if head != len(words) - 1 or len(words) > 3 or plural_of(words[head].lower()) not in written:
        return topic  # a noun and its modifiers only: "guests see every file in the workspace" is no thing's name
    words[head] = plural_of(words[head])
    return Topic(" ".join(words), topic.score * DISAGREES, True)


def _nouns_written(text: str) -> list[Word]:
    """The words of a text but those right before a determiner, which are verbs ("This guide *helps* a team")."""
    words = words_of(text)
    return [w for w, after in zip(words, [*words[1:], None], strict=False)
            if after is None or after.lower not in DETERMINERS]


def _singular_phrase(phrase: str) -> str:
    """A plural phrase in the singular, with an article when it has none ("share links" -> "a share link")."""
    words = phrase.split()
    words[_head(words)] = singular(words[_head(words)])
    if len(words) == 1 or words[0].lower() not in DETERMINERS:
        words.insert(0, "an" if words[0][:1].lower() in "aeiou" else "a")
    elif words[0].lower() in ("these", "those"):
        words[0] = "the"
    return " ".join(words)


def verbs_around(words: list[Word], index: int, config: PipelineConfig) -> frozenset[str]:
    """The stems of the content words nearest the pronoun on each side, within two words ("when it *ends*",
    "*change* it later"): what the pronoun's referent does or has done to it."""
    stems = set()
    for side in (range(index + 1, min(index + 3, len(words))), range(index - 1, max(index - 3, -1), -1)):
        for i in side:
            word = words[i]
            if word.lower in SUBJECTS or word.lower in LIGHT_VERBS:
                break
            if is_content(word):
                stems.add(stem_of(word, config))
                break
    return frozenset(stem for stem in stems if stem)


def rest_of(words: list[Word], index: int, config: PipelineConfig) -> frozenset[str]:
    """The stems of the question's content words but the pronoun's and light verbs: what it says of its referent."""
    return frozenset(stem_of(w, config) for k, w in enumerate(words)
                     if k != index and is_content(w) and w.lower not in LIGHT_VERBS) - {""}


def is_addressed(words: list[Word], index: int, config: PipelineConfig) -> bool:
    """Whether "them/their" is whom the speaker would get in touch with: a verb or noun of contacting stands next
    to it ("email them", "reach them", "their phone number"), and no "they" of the question's own names the people
    already ("can they download them?" are things)."""
    if any(w.lower == "they" for w in words):
        return False
    return bool(verbs_around(words, index, config) & set(terms_of(" ".join(_CONTACTING), config)))


def indefinite(phrase: str) -> str:
    """The phrase in the singular with "a"/"an" for its determiner ("the versions" -> "a version")."""
    words = bare_phrase(phrase).split()
    head = words[_head(words)]
    words[_head(words)] = head[:-2] if head.lower().endswith(("'s", "’s")) else singular(head)  # "copy's": a copy
    return f"{'an' if words[0][:1].lower() in 'aeiou' else 'a'} {' '.join(words)}"


def _head(words: list[str]) -> int:
    """The index of a phrase's head noun: its last word before a preposition ("versions on the Team plan")."""
    for i, word in enumerate(words[1:], start=1):
        if word.lower() in PREPOSITIONS:
            return i - 1
    return len(words) - 1
