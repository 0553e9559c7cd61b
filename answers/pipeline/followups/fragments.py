"""Elliptical fragments: a phrase of the new question put in place of the previous question's own."""
import itertools
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups.pronouns import substitute_pronouns
from answers.pipeline.followups.turns import FollowupRules, Turn
from answers.pipeline.followups.words import ADVERBS, DO, END, terms_of
from answers.pipeline.topics import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    LIGHT_VERBS,
    PREPOSITIONS,
    QUESTION_WORDS,
    REFERRING,
    SUBJECTS,
    Word,
    is_content,
    is_name,
    is_participle,
    is_plural,
    not_topic,
    plural_of,
    singular,
    stem_of,
    topic_skips,
    words_of,
)


def phrase_in_place(question: str, words: list[Word], previous: str, *, config: PipelineConfig,
                    rules: FollowupRules) -> str | None:
    """A verbless phrase put in place of the previous question's phrase it parallels: one opening with "of" or "to"
    for the previous phrase after the same word ("of the mobile app?" after "... a Linux version of the desktop
    app?", "to existing files?" after "What happens to uploads when ...?"), or a noun with a phrase after it whose
    head the previous question has ("customers in India?" for "Business customers"); None for any other question."""
    if any(w.lower in AUXILIARIES or w.lower in SUBJECTS or w.lower in QUESTION_WORDS or w.lower in REFERRING
           or w.lower in CONJUNCTIONS for w in words) or len(terms_of(question, config)) > rules.max_fragment_terms:
        return None
    before = words_of(previous)
    text = END.sub("", question).strip()
    if words[0].lower in ("of", "to") and len(words) > 1:
        for i, word in enumerate(before[:-1]):
            if word.lower == words[0].lower:
                end = _phrase_end(before, i + 1)
                return previous[: word.start] + text + previous[before[end].end :] if end > i else None
        return None
    preposition = next((i for i, w in enumerate(words) if w.lower in PREPOSITIONS), None)
    if (not preposition or preposition + 1 == len(words) or is_participle(words[0])
            or not all(is_content(w) for w in words[:preposition])):
        return None
    head = stem_of(words[preposition - 1], config)
    skipped = not_topic(before)
    for i, word in enumerate(before):
        if i not in skipped and is_content(word) and stem_of(word, config) == head:
            start, end = i, i
            while start > 0 and start - 1 not in skipped and is_content(before[start - 1]):
                start -= 1
            while (end + 1 < len(before) and end + 1 not in skipped and not is_plural(before[end].text)
                   and is_content(before[end + 1]) and is_plural(before[end + 1].text)):
                end += 1  # "file" of "older file versions": a modifier, the phrase goes on to its plural head
            return previous[: before[start].start] + text + previous[before[end].end :]
    return None


def _phrase_end(words: list[Word], start: int) -> int:
    """The index of the last word of the noun phrase opening at `start` (its determiners and content words)."""
    end = start - 1
    for i in range(start, len(words)):
        determiner = words[i].lower in DETERMINERS and end == i - 1 and not any(is_content(w) for w in words[start:i])
        if determiner or (is_content(words[i]) and words[i].lower not in PREPOSITIONS):
            end = i
        else:
            break
    return end if end >= start and is_content(words[end]) else start - 1


def participle_fragment(question: str, words: list[Word], previous: str, *, config: PipelineConfig,
                        rules: FollowupRules) -> str | None:
    """A fragment opening with a past participle and holding no verb of its own ("limited to a number of
    downloads?") put in place of the participle phrase of a previous passive question ("Can a share link be
    protected with a password?" -> "Can a share link be limited to a number of downloads?"); None otherwise."""
    if not is_participle(words[0]) or len(terms_of(question, config)) > rules.max_fragment_terms + 1:
        return None
    if any(w.lower in AUXILIARIES or w.lower in SUBJECTS or w.lower in QUESTION_WORDS or w.lower in REFERRING
           for w in words):
        return None
    before = words_of(previous)
    if not before or before[0].lower not in AUXILIARIES:
        return None
    for i, word in enumerate(before[2:], start=2):
        if is_participle(word) and before[i - 1].lower in ("be", "been"):
            return previous[: word.start] + END.sub("", question)
    return None


def wh_slot(question: str, words: list[Word], previous: str, *, config: PipelineConfig, rules: FollowupRules
            ) -> str | None:
    """A question that is only what it asks for ("how many times?", "how much storage?", "which standard?",
    "when?"): it has no predicate of its own (no auxiliary, no subject, no pronoun), so it takes the previous
    question's, its asked-for phrase in place of the previous one's ("How many members can a trial workspace
    invite?" -> "How much storage can a trial workspace invite?") or put in front of a yes/no question ("can the
    trial be extended?" -> "how many times can the trial be extended?"); None for a question with a predicate."""
    if words[0].lower not in QUESTION_WORDS or words[0].lower == "who":
        return None
    if any(w.lower in AUXILIARIES or w.lower in SUBJECTS or w.lower in REFERRING or w.lower in LIGHT_VERBS
           or w.lower in PREPOSITIONS for w in words):
        return None
    if len(terms_of(question, config)) > rules.max_thin_terms:
        return None
    before = words_of(previous)
    text = END.sub("", question).strip()
    if before[0].lower in AUXILIARIES:
        return f"{text} {previous[:1].lower()}{previous[1:]}"
    if before[0].lower in QUESTION_WORDS and before[0].lower != "who":
        verb = next((i for i, w in enumerate(before) if w.lower in AUXILIARIES), None)
        if verb is not None and verb > 0:
            return f"{text} {previous[before[verb].start:]}"
    return None


def heads_parallel(words: list[Word], previous: str, config: PipelineConfig) -> bool:
    """Whether a phrase's head, its last word, is a content word of the previous question too: "Team plan users"
    after "Can Business plan users ...?" is a slot of the same kind, so a longer phrase is still a case of it."""
    head = stem_of(words[-1], config) if words else ""
    return bool(head) and any(stem_of(w, config) == head for w in words_of(previous) if is_content(w))


def head_cited(words: list[Word], previous: Turn, config: PipelineConfig) -> bool:
    """Whether a phrase's head, its last word, is a word of the previous answer or its cited passages, or the
    previous question went unanswered: "hardware security keys?" after a passage on Business plan features that
    names them is a case of the same question, and so it is after a refusal, which leaves no answer to move on from;
    "Android tablet support?" after a passage that never writes "support" is a question of its own."""
    head = stem_of(words[-1], config) if words else ""
    if head and not previous.answer_sentences and not previous.cited_texts:
        return True
    return bool(head) and any(stem_of(w, config) == head for text in (*previous.answer_sentences,
                                                                         *previous.cited_texts)
                              for w in words_of(text) if is_content(w))


def asks_after_comma(rest: str) -> bool:
    """Whether "what about X, ..." goes on after its phrase with a question of its own, opening with an auxiliary
    or a question word ("guests, are they charged as users")."""
    _, comma, clause = rest.partition(",")
    words = words_of(clause)
    return bool(comma and words) and (words[0].lower in AUXILIARIES or words[0].lower in QUESTION_WORDS)


def to_for(case: str) -> str:
    """A case opening with "to" or "using" as one opening with a preposition the rewrite appends ("to guests" ->
    "for guests")."""
    first, _, rest = case.partition(" ")
    if first.lower() == "to":
        return f"for {rest}"
    if first.lower() == "using":
        return f"with {rest}"
    return case


def _append(previous: str, fragment: str) -> str:
    """The previous question with the fragment added at its end ("... take for digital goods?"), or put in place of
    the phrase the previous question ends with when it has the same preposition (a chain of "and for X?")."""
    fragment = END.sub("", fragment).strip()
    previous = END.sub("", previous)
    first = fragment.split()[0].lower()
    if first not in PREPOSITIONS:
        return f"{previous} for {fragment}"
    words = words_of(previous)
    for i in range(len(words) - 1, max(len(words) - 5, 0), -1):
        if words[i].lower == first and all(
            w.lower not in AUXILIARIES and w.lower not in QUESTION_WORDS and w.lower not in SUBJECTS for w in words[i:]
        ):
            return f"{previous[: words[i].start]}{fragment}"
    return f"{previous} {fragment}"


def rewrite_fragment(fragment: str, previous: str, history: Sequence[Turn], *, config: PipelineConfig) -> str | None:
    """The previous question rewritten for an elliptical fragment ("the Team plan", "for macOS", "downgrade"); None
    for a fragment that names nothing ("for?")."""
    fragment = _one_as_head(fragment, previous)
    fragment = substitute_pronouns(fragment, words_of(fragment), history, config=config) or fragment
    words = words_of(fragment)
    before = words_of(previous)
    if (words and words[-1].lower in QUESTION_WORDS and all(w.lower in PREPOSITIONS for w in words[:-1])
            and before and before[0].lower in AUXILIARIES):
        return f"{fragment} {previous[:1].lower()}{previous[1:]}"  # "from where can an invitation be sent again?"
    if not any(is_content(w) for w in words):
        return None
    core = [w for w in words if w.lower not in PREPOSITIONS | DETERMINERS | CONJUNCTIONS]
    if not core:
        return None
    if (number := _parallel_number(core, before)) is not None:  # "and below 99%?" after "... below 99.9%?"
        return previous[: before[number].start] + core[-1].text + previous[before[number].end :]
    if any(w.lower in QUESTION_WORDS for w in words) and before and before[0].lower in AUXILIARIES:
        return f"{fragment} {previous[:1].lower()}{previous[1:]}"  # "on which plan does Lumora support SSO?"
    if (len(words) >= 3 and is_content(words[0]) and not is_name(words[0], 1)
            and any(w.lower in PREPOSITIONS | DETERMINERS for w in words[1:])):
        return f"{END.sub('', previous)} and {fragment}"  # a verb phrase: "... and download a report of them"
    replacing = fragment[core[0].start : core[-1].end]
    preposition = words[0].lower if words[0].lower in PREPOSITIONS else ""
    span = _parallel(core, before, preposition, config=config)
    if span is not None:
        head = previous[: before[span[0]].start]
        if span[0] > 0 and before[span[0] - 1].lower in ("a", "an") and before[span[0] - 1].end == len(head) - 1:
            article = "an" if replacing[:1].lower() in "aeiou" else "a"  # "a monthly plan" -> "an annual plan"
            head = head[: before[span[0] - 1].start] + article + " "
        return head + replacing + previous[before[span[1]].end :]
    if len(words) == 1 and not is_plural(fragment) and not is_name(words[0], 1):
        for i, word in enumerate(before[:-1]):
            if word.lower in SUBJECTS:  # "and downgrade?" after "Can I upgrade ...": the verb is what changes
                verb = before[i + 1]
                return previous[: verb.start] + fragment + previous[verb.end :]
    return _append(previous, fragment)


# Words that open a noun's complement: "the engineering manager *on* duty", "problems *with* our own network".
COMPLEMENTS = PREPOSITIONS | {"to", "of"}


def append_case(fragment: str, previous: str, *, config: PipelineConfig) -> str:
    """The previous question with a noun phrase and its complement in place of the run ending in the same head
    ("the engineering manager on duty" for "the primary manager"), else added to its end ("... for problems with our
    own network")."""
    words, before = words_of(fragment), words_of(previous)
    split = next(i for i, w in enumerate(words) if w.lower in COMPLEMENTS)
    head = stem_of(words[split - 1], config)
    skipped = not_topic(before)
    for i, word in enumerate(before):
        if i not in skipped and is_content(word) and stem_of(word, config) == head:
            start = i
            while start > 0 and start - 1 not in skipped and is_content(before[start - 1]):
                start -= 1
            if start > 0 and before[start - 1].lower in DETERMINERS and words[0].lower in DETERMINERS:
                start -= 1
            return previous[: before[start].start] + fragment + previous[word.end :]
    return _append(previous, fragment)


def _parallel_number(core: list[Word], before: list[Word]) -> int | None:
    """The index of the one number of the previous question that a fragment's closing number stands for, when the
    fragment says nothing else but the word the previous question writes before its number ("below 99%" for "below
    99.9%"); else None."""
    numbers = [i for i, w in enumerate(before) if w.text[:1].isdigit()]
    if not core or not core[-1].text[:1].isdigit() or len(numbers) != 1:
        return None
    leading = [w.lower for w in core[:-1]]
    if leading and (numbers[0] == 0 or leading != [before[numbers[0] - 1].lower]):
        return None
    return numbers[0]


def _one_as_head(fragment: str, previous: str) -> str:
    """The fragment with a closing "one(s)" after a modifier put as the head noun it stands for: the last noun of
    the previous question's phrase after the same preposition ("on an annual one" after "... on a monthly plan"),
    else its last noun."""
    words, before = words_of(fragment), words_of(previous)
    if len(words) < 2 or words[-1].lower not in ("one", "ones") or not is_content(words[-2]):
        return fragment
    start = next((i + 1 for i, w in enumerate(before) if w.lower == words[0].lower), 0)
    heads = [w for w in before[start:] if is_content(w)]
    verbs = topic_skips(before) | _do_support_verb(before)  # "Do the codes *expire*?": the backup ones are codes
    nouns = [w for i, w in itertools.takewhile(lambda p: (is_content(p[1]) and p[0] not in verbs)
                                               or p[1].lower in DETERMINERS, enumerate(before[start:], start=start))]
    candidates = _without_closing_adverbs([w for w in nouns if is_content(w)]) or heads
    if not candidates:
        return fragment
    if not nouns:  # no noun phrase right after the preposition: the content words that word order leaves nouns
        candidates = [w for i, w in enumerate(before[start:], start=start)
                      if is_content(w) and i not in verbs and not is_participle(w)] or candidates
        # "the current one" after "Do older versions count toward storage?": a modifier's "one" stands for the noun
        # the previous question gives a modifier of its own, a phrase of two words opening a run ("older versions"),
        # not for its last noun
        modified = [w for i, w in enumerate(before[start + 1 :], start=start + 1)
                    if w in candidates and is_content(before[i - 1]) and i - 1 not in verbs
                    and not is_name(before[i - 1], i - 1) and (i - 1 == 0 or not is_content(before[i - 2]))]
        candidates = modified or candidates
    head = candidates[-1]
    if is_name(words[-2], 1):  # "the Business one" after "the Team plan cost": the noun the name it parallels names
        head = _named_noun(before, verbs) or head
    if words[-1].lower == "one":
        noun = singular(head.lower) if is_plural(head.text) else head.lower
    else:
        noun = head.lower if is_plural(head.text) else plural_of(head.lower)
    return fragment[: words[-1].start] + noun + fragment[words[-1].end :]


def _named_noun(words: list[Word], verbs: set[int]) -> Word | None:
    """The last noun of the run of content words after the question's first name ("region" of "the European data
    region"; "plan" of "does the Team plan cost ...", whose run closes with the verb of its "does"), the name's own
    head; None when no name has a noun after it."""
    for i, word in enumerate(words[1:], start=1):
        if not is_name(word, i):
            continue
        run = list(itertools.takewhile(lambda p: is_content(p[1]) and p[1].lower not in PREPOSITIONS
                                       and not is_name(p[1], p[0]) and p[0] not in verbs,
                                       enumerate(words[i + 1 :], start=i + 1)))
        if len(run) > 1 and any(w.lower in DO for w in words[:i]):
            run = run[:-1]  # "does the Team plan *cost*": do-support, the run closes with its verb
        if run:
            ends = _without_closing_adverbs([w for k, w in run if not is_participle(w)])
            return ends[-1] if ends else None
    return None


def _without_closing_adverbs(run: list[Word]) -> list[Word]:
    """The run without the adverbs that close it: "Which team takes Oregon incidents *first*?" names incidents."""
    end = len(run)
    while end > 1 and run[end - 1].lower in ADVERBS:
        end -= 1
    return run[:end]


def _do_support_verb(words: list[Word]) -> set[int]:
    """The index of the verb closing a question that opens with do-support, when word order gives it away: the last
    word of the first run of content words, the question's last word, after a plural noun or as the second of two
    ("Do the codes *expire*?", "Do share links *expire*?", "Does the trial *end*?"); none else ("Does the Team plan
    include phone support?" ends in its object)."""
    if not words or words[0].lower not in DO:
        return set()
    start = next((i for i in range(1, len(words)) if is_content(words[i])), None)
    if start is None:
        return set()
    end = start
    while end + 1 < len(words) and is_content(words[end + 1]) and words[end + 1].lower not in PREPOSITIONS:
        end += 1
    if end != len(words) - 1 or end == start or is_plural(words[end].text):
        return set()
    return {end} if end == start + 1 or is_plural(words[end - 1].text) else set()


def _parallel(core: list[Word], before: list[Word], preposition: str, *, config: PipelineConfig
              ) -> tuple[int, int] | None:
    """The span [first, last] of the previous question that the fragment stands for: the content words ending in
    the fragment's last word ("the Business plan" for "the Team plan"), else, for a name, the first name ("iOS" for
    "Android") that no other preposition governs ("on Android" does not stand for "with Face ID")."""
    skipped = not_topic(before)
    head = stem_of(core[-1], config)
    for i, word in enumerate(before):
        if head and i not in skipped and is_content(word) and stem_of(word, config) == head:
            start = i
            while start > 0 and start - 1 not in skipped and is_content(before[start - 1]):
                start -= 1
            return start, i
    if not all(is_name(w, 1) for w in core):
        return None
    # A name right after "which" is what the question is about ("which iOS version"), not the asked-for noun.
    names = [i for i, w in enumerate(before) if is_name(w, i) and (i not in skipped or before[i - 1].lower == "which")
             and not _governed_otherwise(before, i, preposition)]
    if not names:
        return None
    end = names[0]
    while end + 1 in names:
        end += 1
    return names[0], end


def _governed_otherwise(words: list[Word], index: int, preposition: str) -> bool:
    """Whether the name at `index` follows a preposition (within its phrase) other than the fragment's."""
    for i in range(index - 1, max(index - 4, -1), -1):
        if words[i].lower in PREPOSITIONS:
            return bool(preposition) and words[i].lower != preposition
        if not (is_content(words[i]) or words[i].lower in DETERMINERS):
            return False
    return False


_BARE_MODALS = frozenset({"can", "could", "may", "might", "must", "should", "will", "would"})


def modal_only(question: str, words: list[Word], config: PipelineConfig) -> str:
    """A modal with a subject and no verb, as "<modal> <subject> do that" for the previous verb phrase to fill:
    "who can?" -> "who can do that", "can workspace admins?" -> "can workspace admins do that", "a guest, can
    one?" -> "can a guest do that"; "" for any other question (one with a verb of its own is no fragment)."""
    if words and words[0].lower in CONJUNCTIONS:
        words = words[1:]
    if len(words) == 2 and words[0].lower == "who" and words[1].lower in _BARE_MODALS:
        return f"who {words[1].lower} do that"
    comma = question.find(",")
    named = [w for w in words if w.start < comma] if comma >= 0 else []
    rest = words[len(named):]
    if named and len(rest) == 2 and rest[0].lower in _BARE_MODALS and rest[1].lower in ("one", "they", "it"):
        subject = named  # "a guest, can one?"
    elif not named and len(words) >= 2 and words[0].lower in _BARE_MODALS:
        subject = words[1:]  # "can workspace admins?"
    else:
        return ""
    determined = bool(subject) and subject[0].lower in DETERMINERS
    nouns = subject[1:] if determined else subject
    # a noun phrase: a determiner only first, one or two content words, the last plural unless a determiner opens
    # it ("workspace admins", "a guest"); "Can guests open the trash?" and "Can guests comment?" have their verb
    if (not 1 <= len(nouns) <= 2 or not all(is_content(w) and w.lower not in DETERMINERS for w in nouns)
            or nouns[0].lower in SUBJECTS or not (determined or is_plural(nouns[-1].text))):
        return ""
    modal = rest[0].lower if named else words[0].lower
    return f"{modal} {question[subject[0].start : subject[-1].end]} do that"
