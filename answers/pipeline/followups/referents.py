"""What a pronoun stands for as the previous answer or its cited sentences name it, not the topic."""
import itertools
import re

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups.turns import RULES, Turn
from answers.pipeline.followups.verb_phrases import verb_phrase
from answers.pipeline.followups.words import ADVERBS, DEGREE, END, PLURAL_PRONOUNS, terms_of
from answers.pipeline.topics import (
    AUXILIARIES,
    DETERMINERS,
    LIGHT_VERBS,
    PREPOSITIONS,
    REFERRING,
    Word,
    is_content,
    is_participle,
    is_plural,
    modifiers_of,
    singular,
    stem_of,
    words_of,
)

# What happens to an act, not to a thing: "does it happen right away?", "when would that kick in?"
_EVENT_WORDS = frozenset({"happen", "happens", "effect", "effective", "kick", "kicks", "final", "immediate",
                          "immediately", "right", "instantly", "start", "starts", "begin", "begins", "become",
                          "becomes", "take", "takes", "save", "saves"})
# Words that say no act on their own: "how long does that take?" may be about a thing, as before
_NOT_ALONE = frozenset({"right", "immediately", "instantly", "take", "takes"})


def stands_for_act(words: list[Word], index: int) -> bool:
    """Whether "it/that" is the subject of a predicate only an act has: right after an auxiliary, with every other
    content word one of what happens to an act, when or how soon ("does it happen right away?", "how soon does it
    take effect?", "when would that kick in?"), and one of them a verb of happening ("take" alone is not)."""
    if index == 0 or words[index - 1].lower not in AUXILIARIES:
        return False
    rest = [w.lower for k, w in enumerate(words) if k != index and is_content(w)]
    return (bool(rest) and all(w in _EVENT_WORDS or w in DEGREE or w in ADVERBS for w in rest)
            and any(w in _EVENT_WORDS - _NOT_ALONE for w in rest))


def acts_on_speaker(words: list[Word], index: int) -> bool:
    """Whether "it/that" right after an auxiliary is the subject of a verb whose object is the speaker ("does it
    sign *me* out?", "will that log *me* out on my phone?"): what does something to the asker is the act the asker
    asked about doing, not the thing it was done to."""
    return (index > 0 and index + 2 < len(words) and words[index - 1].lower in AUXILIARIES
            and is_content(words[index + 1]) and words[index + 2].lower in ("me", "us"))


_BE = frozenset({"is", "are", "was", "were"})


def passive_clause(previous: str) -> str:
    """The clause of a question asked in the passive, from its subject on ("my account locked after five failed
    sign-in attempts" for "Is my account locked after five failed sign-in attempts?", "an account locked" for "After
    how many failed attempts is an account locked?"); "" for another shape."""
    words = words_of(previous)
    for k, word in enumerate(words[:-2]):
        if word.lower not in _BE:
            continue
        for j in range(k + 2, len(words)):
            if is_participle(words[j]):
                subject = words[k + 1 : j]
                if any(is_content(w) for w in subject) and all(is_content(w) or w.lower in DETERMINERS
                                                               for w in subject):
                    return END.sub("", previous[words[k + 1].start :])
                break
            if not (is_content(words[j]) or words[j].lower in DETERMINERS):
                break
        return ""
    return ""


def named_event(words: list[Word], index: int, turn: Turn, config: PipelineConfig) -> str:
    """The previous question's act, asked as "I/we", for an "it" that stands for it: a cited or answer sentence names
    the act with its verb as a noun after a determiner and holds every other content word of the question ("when
    does it take effect?" after "Can I downgrade from Business to Team?", citing "A downgrade from Business to Team
    takes effect ..." -> "a downgrade from Business to Team"); "" otherwise."""
    verb = verb_phrase(turn.question, gerund=False).partition(" ")[0]
    act = stem_of(words_of(verb)[0], config) if verb else ""
    other = {stem_of(w, config) for k, w in enumerate(words) if k != index and is_content(w)
             and w.lower not in LIGHT_VERBS and w.lower not in DEGREE} - {""}
    if not act or not other:
        return ""
    for text in (*turn.answer_sentences, *turn.cited_texts):
        for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
            held = words_of(sentence)
            stems = {stem_of(w, config) for w in held}
            if not other <= stems:
                continue
            for k, w in enumerate(held[1:], start=1):
                if stem_of(w, config) == act and held[k - 1].lower in DETERMINERS:
                    rest = verb_phrase(turn.question, gerund=False)[len(verb) :]
                    after = words_of(rest)
                    of = " of" if after and after[0].lower not in PREPOSITIONS | {"to"} else ""  # its object
                    return f"{held[k - 1].lower} {w.lower}{of}{rest}"
    return ""


def demonstrated(words: list[Word], index: int, turn: Turn, config: PipelineConfig) -> str:
    """The phrase a demonstrative "that/this <noun>" points to, as the previous answer wrote it with the words before
    that noun ("the billing contact" for "that contact" after "Invoices are sent by email to the billing contact.");
    "" when the next word is no noun, or the answer writes it with nothing before it."""
    if index + 1 >= len(words):
        return ""
    noun = words[index + 1]
    if (not is_content(noun) or noun.lower in LIGHT_VERBS or noun.lower in ADVERBS or noun.lower in REFERRING
            or (index + 2 < len(words) and is_content(words[index + 2]))):
        return ""
    stem = stem_of(noun, config)
    written = {stem_of(w, config) for text in turn.answer_sentences for w in words_of(text) if is_content(w)}
    modifiers = modifiers_of(stem, turn.answer_sentences, written - {stem}, config=config) if stem else ""
    return f"the {modifiers} {noun.text}" if modifiers else ""


def copula_subject(previous: str) -> str:
    """The noun phrase a "what is/are/'s <the ...>?" question asked the value of ("the default expiry of a share
    link"), which a later "that" stands for; "" for any other question."""
    words = words_of(previous)
    if words and words[0].lower.replace("’", "'") == "what's":  # "What's the member limit on the Team plan?"
        rest = words[1:]
    elif len(words) > 1 and words[0].lower == "what" and words[1].lower in ("is", "are"):
        rest = words[2:]
    else:
        return ""
    if len(rest) < 2 or rest[0].lower not in ("the", "my", "our", "your"):
        return ""
    return END.sub("", previous[rest[0].start :])


def covering_subject(words: list[Word], index: int, topic: str, turn: Turn, *, config: PipelineConfig) -> str:
    """The subject of a cited sentence that holds every other content word of the question, for a pronoun whose
    topic no cited sentence writes together with them ("which standard do they use?" after a question about
    Business users, citing "Security keys use the FIDO2 standard." -> "Security keys"); "" when the topic is
    covered already, when no sentence holds them all, or when that sentence's subject is not of the pronoun's
    number, or when the question has fewer than two other content words."""
    other = {stem_of(w, config) for k, w in enumerate(words) if k != index and is_content(w)
             and w.lower not in LIGHT_VERBS and w.lower not in REFERRING} - {""}
    if len(other) < 2:  # one shared word is no evidence ("pay them": "Business customers can also pay by ...")
        return ""
    sentences = [words_of(s) for text in (*turn.answer_sentences, *turn.cited_texts)
                 for s in re.split(r"(?<=[.!?])\s+|\n", text) if s.strip()]
    stems = [{stem_of(w, config) for w in sentence} for sentence in sentences]
    head = set(terms_of(topic, config))
    if any(head & held and other <= held for held in stems):
        return ""
    plural = words[index].lower in PLURAL_PRONOUNS
    for sentence, held in zip(sentences, stems, strict=True):
        if not other <= held:
            continue
        subject = list(itertools.takewhile(lambda w: is_content(w) and stem_of(w, config) not in other
                                           and w.lower not in AUXILIARIES, sentence))
        if subject and len(subject) < len(sentence) and is_plural(subject[-1].text) == plural:
            phrase = " ".join(w.text for w in subject)
            return phrase[:1].lower() + phrase[1:] if phrase[1:2].islower() else phrase
    return ""


def object_in_answer(verb: Word, turn: Turn, config: PipelineConfig) -> str:
    """The one thing the previous answer or its passages do the pronoun's verb to ("reset your *2FA*" for "who can
    reset it?"): the content words after the verb and a determiner, in one sentence, none of them a word of the
    previous question (that is its topic already: "accept the transfer" after "How do I transfer ownership?"), with
    "the" when it is one noun after "the" (a thing the passage named before: "approves *the request*"); "" when they
    write none or several."""
    stem = stem_of(verb, config)
    asked = set(terms_of(turn.question, config))
    found = set()
    for sentence in (*turn.answer_sentences, *turn.cited_texts):
        words = words_of(sentence)
        for k, word in enumerate(words[:-1]):
            if stem_of(word, config) != stem or words[k + 1].lower not in DETERMINERS:
                continue
            start = end = k + 2
            while (end < len(words) and end - start < RULES.max_topic_words and is_content(words[end])
                   and words[end].lower not in PREPOSITIONS
                   and not sentence[words[end - 1].end : words[end].start].strip()):  # no stop nor line between
                end += 1
            if end > start and not asked & {stem_of(w, config) for w in words[start:end]}:
                first = start - 1 if end - start == 1 and words[start - 1].lower == "the" else start
                found.add(sentence[words[first].start : words[end - 1].end])
    return found.pop() if len(found) == 1 else ""


_PLACES = frozenset({"on", "in", "at", "from", "under"})


def place_answered(turn: Turn, config: PipelineConfig) -> str:
    """The place the first answer sentence of a "where" question names that the question does not: a place
    preposition and the noun phrase after it, up to the next preposition, holding a content word the question lacks
    ("on the Developer page" for "Where do I create personal access tokens?" answered "Personal access tokens are
    created on the Developer page in Account settings."); "" when it names none."""
    asked = set(terms_of(turn.question, config))
    for sentence in turn.answer_sentences[:1]:
        words = words_of(sentence)
        for k, word in enumerate(words[:-1]):
            if word.lower not in _PLACES:
                continue
            end = k + 1
            while (end < len(words) and words[end].lower not in PREPOSITIONS and words[end].lower != "of"
                   and (is_content(words[end]) or words[end].lower in DETERMINERS)
                   and not sentence[words[end - 1].end : words[end].start].strip()):  # no stop nor comma between
                end += 1
            phrase = words[k + 1 : end]
            if any(is_content(w) and stem_of(w, config) not in asked for w in phrase):
                return sentence[word.start : phrase[-1].end]
    return ""


_OWNERS = frozenset({"the", "my", "our", "your", "a", "an"})


def place_asked(question: str) -> str:
    """The last place phrase the previous question wrote, a place preposition, a determiner and the content words
    after it ("from my phone" in "How do I create a share link from my phone?"), which a later "there" stands for;
    "" when it wrote none ("at any time" has no determiner of a place)."""
    words = words_of(question)
    found = ""
    for k, word in enumerate(words[:-2]):
        if word.lower not in _PLACES or words[k + 1].lower not in _OWNERS or not is_content(words[k + 2]):
            continue
        end = k + 2
        while end + 1 < len(words) and is_content(words[end + 1]) and words[end + 1].lower not in PREPOSITIONS:
            end += 1
        found = END.sub("", question[word.start : words[end].end])
    return found


_NOMINAL_PLURALS = ("tions", "sions", "ments", "als", "ances", "ences")


def made_by_act(turn: Turn) -> str:
    """The plural noun the previous answer or its passages make of the verb the previous question asked to do as
    "I/we", which a subject "they" stands for ("invitations" after "How do I invite people to my workspace?", whose
    passage says "Invitations expire after 48 hours."); "" when they write none, or several."""
    verb = verb_phrase(turn.question, gerund=False).partition(" ")[0].lower()
    if len(verb) < 4:
        return ""
    root = verb[:-1] if verb.endswith("e") else verb
    found = {w.lower for text in (*turn.answer_sentences, *turn.cited_texts) for w in words_of(text)
             if w.lower.startswith(root) and w.lower.endswith(_NOMINAL_PLURALS)}
    return found.pop() if len(found) == 1 else ""


def noun_after_modifier(modifier: Word, turn: Turn) -> str:
    """The noun the previous answer or its cited passages write right after a "one"'s modifier ("what is the second
    one called?" after a passage saying "The second copy has the words ..." -> "copy"), in the singular; "" when they
    never write the modifier before a noun."""
    for text in (*turn.answer_sentences, *turn.cited_texts):
        words = words_of(text)
        for k, word in enumerate(words[:-1]):
            following = words[k + 1]
            if word.lower == modifier.lower and is_content(following) and following.lower not in ("one", "ones"):
                return singular(following.lower) if is_plural(following.text) else following.lower
    return ""
