"""What earlier turns of a conversation were about: the words of a question by role, and the topic phrases of the
last turns, ranked by how much the previous answer and its cited passages repeat them (used by followups/).

No part-of-speech tagging: closed word lists (question words, auxiliaries, subjects, determiners, prepositions) and
word order stand in for it. The word right after "I/we/you" is taken for a verb ("how do I *change* it"), the word
after "which/what/how many" for the asked-for noun ("which *plan*"), a word with a capital that does not open the
question for a name ("Team", "iOS").
"""
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.tokens import ENGLISH_STOP_WORDS, tokenize

_END_PUNCTUATION = re.compile(r"[?.!\s]+$")
_IDENTIFIER = re.compile(r"[^\W_]_[^\W_]|[a-z]\.[a-z]")  # "rate_limited", "files.read": a code literal
# A number with decimals or a percent sign is one word ("99.9%"), so that a number stands for a number.
_WORD = re.compile(r"\d+(?:[.,]\d+)+%?|\d+%|[^\W_](?:[\w'’]*[^\W_])?(?:-[^\W_]+)*")
QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "when", "where", "why", "how"})
AUXILIARIES = frozenset({
    "is", "are", "was", "were", "am", "be", "been", "do", "does", "did", "can", "could", "will", "would", "should",
    "shall", "may", "might", "must", "has", "have", "had", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't",
    "didn't", "can't", "cannot", "couldn't", "won't", "wouldn't", "shouldn't", "hasn't", "haven't",
})
CONJUNCTIONS = frozenset({"and", "or", "but", "also", "plus"})
PREPOSITIONS = frozenset({
    "on", "for", "in", "with", "at", "from", "by", "over", "via", "under", "without", "within", "during", "after",
    "before", "through", "across", "per", "below", "above", "toward", "towards", "into", "between",
})
DETERMINERS = frozenset({
    "the", "a", "an", "any", "my", "our", "your", "their", "its", "this", "that", "these", "those", "each", "every",
    "some",
})
SUBJECTS = frozenset({"i", "we", "you"})
REFERRING = frozenset({"it", "its", "that", "this", "they", "them", "their", "one", "ones", "there", "mine", "yours",
                       "theirs", "ours"})
# Auxiliaries after which "who" is the subject and the next word its verb ("who *can* raise it").
MODALS = frozenset({"can", "could", "will", "would", "should", "may", "might", "must", "do", "does", "did"})
# Verbs a question asks with that carry no topic ("how long does it take", "what happens").
LIGHT_VERBS = frozenset({"take", "takes", "get", "gets", "happen", "happens", "mean", "means", "need", "needs", "work",
                         "works"})
_ARTICLES = frozenset({"the", "a", "an", "my", "our", "your"})
# Past participles not ending in -ed, or too short for the -ed rule ("how long are deleted files *kept* in the trash").
IRREGULAR_PARTICIPLES = frozenset({
    "kept", "held", "shown", "sent", "made", "paid", "built", "given", "taken", "seen", "known", "written", "chosen",
    "left", "found", "done", "set", "used",
})
_PARTICLES = frozenset({"out", "up", "off", "down", "away", "back", "over"})
_PLACE_PREPOSITIONS = frozenset({"in", "on", "at"})
_COPULAS = frozenset({"is", "are", "was", "were"})
# The verbs of "what does X do/have/mean?": the question's own verb comes after the run, which is all subject
_CLOSING_VERBS = frozenset({"do", "have", "mean", "be"})
_WHAT_HAPPENS = re.compile(r"^\s*(?:and\s+)?what\s+happens\s+(?:when|if)\b", re.I)
# "A conflict happens when ...": a sentence naming a situation
_NAMED = re.compile(
    r"(?:^|[.!?\n]\s*)(?:an?|the)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+(?:happens|occurs)\s+(?:when|if)\b", re.I
)
NAMED = 3.0  # the score of the name an answer gives a situation asked about ("what happens when ...?": a conflict)
UNREPEATED = 0.6  # the weight of each word of a phrase the passages do not repeat, in a run they write part of
WRITTEN_OUT = 0.8  # the same in a run they write no part of: the question's own noun phrase ("a deleted file")
PERSISTS = 0.5  # the bonus of a phrase that another recent question holds too
ACTS = 0.6  # the bonus of a phrase the passages put next to the pronoun's verb
# The bonus, above any score of length and repetition, of a phrase of the latest question when the documents did
# not answer it (what the speaker asks about now), and of an older phrase the passages put next to the pronoun's verb
FOCUS = 3.0
# The score of the noun a "which X" question asks for, which its answer names ("it" after "which shortcut opens quick
# search?" is the shortcut): above a two-word phrase the passages repeat (2 + 0.5 + 0.05)
ASKED = 2.6
# The weight of a plural asked-for noun put in the singular for "it" ("which operating systems does the desktop app
# support?", "is it free?": rather the desktop app): just above a one-word phrase the passages repeat
SINGULAR_ASKED = 0.8
# The bonus of the head noun of "X of Y" ("a report of active share links": the report)
HEAD_OF = 0.5
# The cost of the subject of a relative clause without "that", which describes the noun before it ("the longest
# expiry *a share link* can have"): below a one-word phrase the passages repeat
DESCRIBING = 1.0
CUT_HEAD = 0.3  # the cost of a phrase that stops before its run's last word, the head noun ("the personal access")


class TurnLike(Protocol):
    """What a topic is looked for in: an earlier turn (followups.Turn)."""

    @property
    def question(self) -> str: ...
    @property
    def answer_sentences(self) -> tuple[str, ...]: ...
    @property
    def cited_texts(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Word:
    """A word of a text as written, lower-cased, and where it stands."""

    text: str
    lower: str
    start: int
    end: int


@dataclass(frozen=True)
class Topic:
    """A candidate topic phrase as it will be written in ("a share link"), its rank score, and its number."""

    phrase: str
    score: float
    plural: bool


def words_of(text: str) -> list[Word]:
    """The words of a text with their offsets ("two-factor", "sign-on" and "don't" stay one word)."""
    return [Word(m.group(), m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def is_content(word: Word) -> bool:
    """Whether the word can name a thing: not a stop word, question word, auxiliary, subject or pronoun."""
    w = word.lower
    return not (w in ENGLISH_STOP_WORDS or w in AUXILIARIES or w in QUESTION_WORDS or w in REFERRING or w in SUBJECTS)


def is_name(word: Word, index: int) -> bool:
    """A word written with a capital that is not the text's first word (nor "I"): "Team", "iOS", "macOS"."""
    return index > 0 and word.lower != "i" and any(c.isupper() for c in word.text)


def _answer_names(noun: str, answer_sentences: tuple[str, ...]) -> str:
    """The name the first answer sentence writes right before the noun a "which X" question asked for
    ("*Business* plan workspaces can use single sign-on" for "which plan"), or after it with "called/named" ("a
    folder called *Camera Uploads*" for "which folder"); "" when it writes none."""
    for sentence in answer_sentences[:1]:
        words = words_of(sentence)
        for i, word in enumerate(words[1:], start=1):
            before = words[i - 1]
            if (word.lower == noun and before.lower not in DETERMINERS and is_content(before)
                    and any(c.isupper() for c in before.text)):
                return before.text  # sentence-initial too: "Business plan workspaces ..."
        if called := re.search(rf"\b{re.escape(noun)}\s+(?:called|named)\s+(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)",
                               sentence):
            return called.group("name")  # "a folder called Camera Uploads": the Camera Uploads folder
    return ""


def is_plural(text: str) -> bool:
    """Whether a phrase's last word looks plural ("links", not "class")."""
    last = text.split()[-1].lower() if text.split() else ""
    return last.endswith("s") and not last.endswith("ss")


def stem_of(word: Word, config: PipelineConfig) -> str:
    """The word's index term ("" for a stop word)."""
    return " ".join(tokenize(word.text, config.tokenizer))


def not_topic(words: list[Word]) -> set[int]:
    """Indexes of words that say what is asked, not what about: question words and their noun ("which plan",
    "how many members", "how long"), auxiliaries, light verbs, and the verb right after a subject ("how do I
    *change*") or after the asked-for noun when no auxiliary comes first ("which plan *includes*")."""
    skipped: set[int] = set()
    for i, word in enumerate(words):
        w, has_next = word.lower, i + 1 < len(words)
        if w in QUESTION_WORDS or w in AUXILIARIES or w in LIGHT_VERBS:
            skipped.add(i)
        if has_next and (w in SUBJECTS or w == "how"):
            skipped.add(i + 1)
        if w == "who" and i + 2 < len(words) and words[i + 1].lower in MODALS:
            skipped.add(i + 2)  # "who can *see* invoices": "who" is the subject, the word after its auxiliary a verb
        elif w == "who" and has_next and words[i + 1].lower not in AUXILIARIES and is_content(words[i + 1]):
            skipped.add(i + 1)  # "see who *changed* a file", "who *approves* refunds": a subject "who" and its verb
        if w == "to" and has_next and i - 1 in skipped and words[i - 1].lower not in ("happen", "happens"):
            # not "what happens to *folders* ...": "happen" takes no infinitive, its "to" opens what it happens to
            skipped.add(i + 1)  # "how long to *wait*", "which header to *use*": an infinitive after what is asked
        if w in ("which", "what", "many", "much") and has_next and is_content(words[i + 1]):
            skipped.add(i + 1)
            if i + 2 < len(words) and words[i + 2].lower not in AUXILIARIES and is_content(words[i + 2]):
                skipped.add(i + 2)
    return skipped


def is_participle(word: Word) -> bool:
    """Whether the word looks like a past participle ("issued", "kept")."""
    return (len(word.lower) > 4 and word.lower.endswith("ed")) or word.lower in IRREGULAR_PARTICIPLES


def topic_skips(words: list[Word]) -> set[int]:
    """`not_topic`, and the verbs word order gives away inside a run of content words: a word between a noun and
    an article ("attempts *lock* an account"), a participle closing the run after a noun ("are invoices *issued*
    in", "is a credit card *needed*") or right after an auxiliary ("which standard is *used*?"), and the verb right
    after a modal's subject ("which plans can *use* ...", "can admins *restore* ...")."""
    skipped = not_topic(words)
    # "Are hardware security keys a Business-only feature?": after an opening "is/are", the word before an article
    # closes the subject, the article opens what it is said to be; there is no verb to skip
    copula = bool(words) and words[0].lower in _COPULAS
    for i in range(1, len(words)):
        following = words[i + 1] if i + 1 < len(words) else None
        if (i not in skipped and words[i - 1].lower in AUXILIARIES and is_participle(words[i])
                and (following is None or not is_content(following))):
            skipped.add(i)  # "which standard is *used*?": a passive with nothing after it
            continue
        if i in skipped or not is_content(words[i]) or not is_content(words[i - 1]):
            continue
        before_article = (following is not None and following.lower in ("a", "an", "the")
                          and not (copula and not any(w.lower in AUXILIARIES for w in words[1:i]))
                          and not _contact_clause(words, i + 1))
        closing = is_participle(words[i]) and (following is None or not is_content(following))
        # A verb in -s after a noun, before its particle or a gerund: "when the trial *runs* out", "when a card
        # payment *keeps* failing"
        phrasal = (following is not None and words[i].lower.endswith("s") and not words[i - 1].lower.endswith("s")
                   and (following.lower in _PARTICLES or (following.lower.endswith("ing") and is_content(following))))
        if before_article or closing or phrasal:
            skipped.add(i)
    if (verb := _fronted_object_verb(words)) is not None:
        skipped.add(verb)
    return skipped | _verbs_after_subject(words)


def _contact_clause(words: list[Word], article: int) -> bool:
    """Whether the noun phrase opening at `article` is the subject of a relative clause without "that", its modal
    and verb closing the question ("the longest expiry *a share link can have*"): the word before the article is
    then the noun the clause describes, no verb ("attempts *lock* an account" has no modal after its object)."""
    end = next((k for k in range(article + 1, len(words)) if not is_content(words[k])), len(words))
    return (article + 1 < end < len(words) - 1 and words[end].lower in MODALS and len(words) - end - 1 <= 2
            and not any(w.lower in _ARTICLES for w in words[end + 1 :]))


def _verbs_after_subject(words: list[Word]) -> set[int]:
    """The verb right after a modal's subject, where word order gives it away: after "<noun> can/will ..." the next
    word ("which plans can *use* SAML single sign-on?"), and after "do/can <bare plural>" a word not in the plural
    ("can admins *restore* files ...?", "do guests *count* as members?"; not "do share links expire?")."""
    found = set()
    for i in range(len(words) - 1):
        if words[i].lower not in MODALS:
            continue
        after = words[i + 1]
        if (i > 0 and words[i].lower not in ("do", "does", "did") and is_content(words[i - 1])
                and words[i - 1].lower not in QUESTION_WORDS and is_content(after)):
            found.add(i + 1)  # "plans can *use*"
        elif _bare_plural_subject(words, i):
            found.add(i + 2)  # "can admins *restore*"
        elif (i + 2 < len(words) and is_name(after, i + 1) and is_content(words[i + 2])
              and not is_name(words[i + 2], i + 2) and not is_plural(words[i + 2].text)):
            found.add(i + 2)  # "where does Lumora *store* my files?": a name for a subject, then its verb
    return found


def _bare_plural_subject(words: list[Word], modal: int) -> bool:
    """Whether the word after the modal at `modal` is a bare plural subject with its verb after it ("can *admins*
    restore ...", "do *guests* count ..."; not "do share links ...")."""
    if modal + 2 >= len(words):
        return False
    subject, verb = words[modal + 1], words[modal + 2]
    return (is_content(subject) and is_plural(subject.text) and is_content(verb) and not is_plural(verb.text)
            and not is_participle(verb) and verb.lower not in LIGHT_VERBS)


def modal_subject(question: str) -> str | None:
    """The bare plural subject of a question opening with a modal, "can/do <subject> <verb> ...?" ("Can admins block
    share links ...?" -> "admins"); None for another question."""
    words = words_of(question)
    if len(words) < 3 or words[0].lower not in MODALS or not _bare_plural_subject(words, 0):
        return None
    return words[1].text


def _fronted_object_verb(words: list[Word]) -> int | None:
    """The verb closing a question whose object the question word took to the front, after do and its subject
    ("what does the Business plan *cost*?", "which browsers does the web app *support*?"): the last word of the run
    of content words after the auxiliary, when it ends the question or a non-content word follows."""
    if len(words) < 4 or not (words[0].lower in ("what", "which") or (words[0].lower == "how" and words[1].lower in (
            "much", "many"))):
        return None
    aux = next((i for i, w in enumerate(words) if w.lower in ("do", "does", "did")), None)
    if aux is None or aux + 1 >= len(words) or words[aux + 1].lower in SUBJECTS:
        return None
    start = aux + 2 if words[aux + 1].lower in DETERMINERS | {"one"} else aux + 1  # "does one block *add*"
    end = start
    while end < len(words) and is_content(words[end]):
        end += 1
    if end < len(words) and words[end].lower in _CLOSING_VERBS:
        return None  # "what does the embed widget *do*?": the widget is no verb
    return end - 1 if end - start >= 2 else None


def asked_noun(words: list[Word]) -> tuple[int, int] | None:
    """The span [first, last] of the noun a "which/what/how many X" question asks for ("which *currencies*"; two
    words when an auxiliary follows them: "which *data centres* does", "how many *backup codes* do"), or None."""
    for i, word in enumerate(words[:-1]):
        if (word.lower in ("which", "what", "many") and is_content(words[i + 1]) and not is_name(words[i + 1], i + 1)
                and words[i + 1].lower not in LIGHT_VERBS and not is_participle(words[i + 1])):  # "what *happens*"
            if (i + 3 < len(words) and is_content(words[i + 2]) and words[i + 2].lower not in AUXILIARIES
                    and words[i + 3].lower in AUXILIARIES):
                return i + 1, i + 2
            return i + 1, i + 1
    return None


def plural_of(noun: str) -> str:
    """A regular English plural ("code" -> "codes", "box" -> "boxes", "policy" -> "policies")."""
    if noun.lower().endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if len(noun) > 1 and noun.lower().endswith("y") and noun[-2].lower() not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def singular(word: str) -> str:
    """A plural noun's singular, by its ending ("currencies" -> "currency", "links" -> "link")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _runs(words: list[Word], skipped: set[int]) -> list[tuple[int, int]]:
    """Maximal runs [start, end) of content words that may name the topic."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for i in range(len(words) + 1):
        usable = i < len(words) and i not in skipped and is_content(words[i])
        if usable and start is None:
            start = i
        elif not usable and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _count(phrase: list[str], corpus: list[list[str]]) -> int:
    """How often the stemmed phrase occurs, word after word, in the stemmed texts."""
    n = len(phrase)
    return sum(1 for tokens in corpus for i in range(len(tokens) - n + 1) if tokens[i : i + n] == phrase)


def _participle_before_written(stems: list[str], words: list[Word], corpus: list[list[str]]) -> bool:
    """Whether the phrase is participles and then a noun phrase of two words or more the stemmed texts write."""
    k = next((n for n, word in enumerate(words) if not is_participle(word)), len(words))
    return k > 0 and len(words) - k >= 2 and bool(_count(stems[k:], corpus))


def _count_inverted(phrase: list[str], corpus: list[list[str]]) -> int:
    """How often the stemmed compound "<modifiers> <head>" is written the other way round, as "<head> of <modifiers>"
    with at most three words between ("share link report": "a report of all active share links"); the stemmed texts
    keep "of" (and every other stop word) as an empty stem, so the word right after the head must be one."""
    if len(phrase) < 2:
        return 0
    head, modifiers, n = phrase[-1], phrase[:-1], len(phrase) - 1
    return sum(1 for tokens in corpus for i, token in enumerate(tokens[:-1])
               if token == head and tokens[i + 1] == "" and any(
                   tokens[k : k + n] == modifiers for k in range(i + 2, min(len(tokens) - n, i + 5) + 1)))


def topics_of(
    history: Sequence[TurnLike], *, config: PipelineConfig, turns: int = 2, max_words: int = 4,
    verbs: frozenset[str] = frozenset(), acted_on: bool = False, acts_itself: bool = False,
) -> list[Topic]:
    """Candidate topic phrases of the last `turns` turns, best first: the longest phrases of their questions that the
    previous answer and its cited passages repeat, each also as a cited title or heading extends it ("link" ->
    "share links"); the latest turn's ahead of older ones; and ahead of all, a phrase whose last word the passages
    put right next to one of `verbs` (the stems around the pronoun: "it ends" after "the trial end date"); the name an
    answer gives the situation a "what happens when ...?" question described ranks high too ("a conflict"). A pronoun
    `acted_on` by its verb is no thing the passages only write doing it; one that `acts_itself` is no fronted object."""
    recent = list(history)[-turns:]
    latest = recent[-1]
    # For each turn (newest first), the stemmed words of the other recent questions: a phrase they share is what
    # the conversation is about, not a passing object ("a share link", not "a password", after "create a share link"
    # and "put a password on a share link").
    questions = [[stem_of(w, config) for w in words_of(turn.question)] for turn in reversed(recent)]
    others = [[q for k, q in enumerate(questions) if k != age] for age in range(len(questions))]
    # The passages of the recent turns are the evidence; a turn the documents did not answer did not move the
    # conversation on, so the turns before it count as recent as it ("Is a credit card needed?", refused, between
    # the free trial and "when it ends").
    corpus = [[stem_of(w, config) for w in words_of(text)] for turn in recent
              for text in (*turn.cited_texts, *turn.answer_sentences)]
    ages, answered = [], 0
    for turn in reversed(recent):
        ages.append(answered)
        answered += bool(turn.answer_sentences)
    headings = _headings(latest.cited_texts)
    # After a refused question, a pronoun is about what that question asked for ("is there a discount for
    # nonprofits?", "how do I apply for it?"), unless an older phrase acts with the pronoun's verb.
    refused = len(recent) > 1 and not latest.answer_sentences
    found: list[Topic] = []
    for order, turn in enumerate(reversed(recent)):
        age = ages[order]
        focus = FOCUS if refused and order == 0 else 0.0
        # What a refused question asks is new: a word it shares with an older question ("API" of "Is there a
        # GraphQL API?" after "What is the API rate limit?") is no more its topic than its own phrase.
        persists = 0.0 if focus else PERSISTS
        words = words_of(turn.question)
        skipped = topic_skips(words)
        for start, end in _runs(words, skipped):
            place = _place_phrase(turn.question, words, end)
            # A run the passages write part of, two words or more, but not whole holds a verb ("the Business plan
            # *cost*"); only then is a phrase the passages do not repeat taken for a noun and a verb.
            split = any(_count([stem_of(w, config) for w in words[i:j]], corpus)
                        for i in range(start, end) for j in range(i + 2, end + 1) if j - i < end - start)
            unrepeated = UNREPEATED if split else WRITTEN_OUT
            for i in range(start, end):
                for j in range(i + 1, min(end, i + max_words) + 1):
                    stems = [stem_of(w, config) for w in words[i:j]]
                    if not all(stems):
                        continue
                    # A compound the passages write as "<head> of <modifiers>" is written out too ("the share link
                    # report": "a report of all active share links"), a noun phrase, not a noun and a verb.
                    repeated = _count(stems, corpus) or _count_inverted(stems, corpus)
                    # A code literal ("rate_limited", "files.read") names its thing, however the passages order it.
                    literal = any(_IDENTIFIER.search(w.text) for w in words[i:j])
                    # Length first (a phrase the question wrote out), then how often the passages repeat it; a
                    # phrase the passages never write word for word is likely a noun and a verb ("the plan cost").
                    # A participle before a noun phrase the passages write is its adjective, not a verb ("an
                    # *expired* share link": "An expired link shows ...", "Share links can expire").
                    weight = WRITTEN_OUT if _participle_before_written(stems, words[i:j], corpus) else unrepeated
                    score = (len(stems) * (1.0 if repeated or literal else weight) + 0.1 * min(repeated, 5)
                             + (0.05 if j == end else -CUT_HEAD) + (persists if _count(stems, others[order]) else 0)
                             ) / (1 + age) + focus
                    if i == start and (extended := _extension(stems, headings, config)):
                        extended = as_in_text(extended, latest.cited_texts)
                        found.append(Topic(extended, score + 0.9 / (1 + age), is_plural(extended)))
                    phrase = turn.question[words[i].start : words[j - 1].end]
                    if i > 0 and words[i - 1].lower in _ARTICLES:
                        phrase = f"{words[i - 1].text} {phrase}"
                    if i == start and i > 0 and words[i - 1].lower in _ARTICLES and _contact_clause(words, i - 1):
                        score -= DESCRIBING / (1 + age)  # "the longest expiry a share link can have": the expiry
                    if j == end and end < len(words) - 1 and words[end].lower == "of":
                        score += HEAD_OF / (1 + age)  # "a report of active share links": a report
                    if place and j == end:  # "deleted files [kept] in the trash": the place stays with the things
                        found.append(Topic(f"{phrase} {place}", score + 0.3 / (1 + age), is_plural(phrase)))
                    found.append(Topic(phrase, score, is_plural(phrase)))
        if named := situation_named(turn):  # "a conflict", what "what happens when ...?" was about
            found.append(Topic(named, NAMED / (1 + age) + focus, False))
        asked = asked_noun(words)
        # The fronted object of "what X does Y <verb>?" does nothing itself: a pronoun that acts ("does it cover beta
        # features?" after "What uptime does the SLA promise?") is the subject, the SLA.
        if (asked is not None and stem_of(words[asked[1]], config)
                and not (acts_itself and asked[1] + 1 < len(words) and words[asked[1] + 1].lower in MODALS)):
            # The thing a "which X" question asks for, which its answer names: "it" after "which currencies ...?".
            noun = turn.question[words[asked[0]].start : words[asked[1]].end].lower()
            if named := _answer_names(noun, turn.answer_sentences):
                noun = f"{named} {noun}"  # "Which plan includes single sign-on?" answered "Business plan ...": it
            found.append(Topic(f"the {noun}", ASKED / (1 + age) + focus, is_plural(noun)))
            if is_plural(noun):  # for "it", behind a thing the question names in the singular ("the desktop app")
                found.append(Topic(f"the {singular(noun)}", ASKED * SINGULAR_ASKED / (1 + age) + focus, False))
    if verbs:
        texts = [text for turn in recent for text in (*turn.cited_texts, *turn.answer_sentences)]
        pairs = _neighbours(texts, config)
        # A pronoun the verb acts on ("how long until someone answers *it*?") is no thing the passages only write
        # doing that verb ("how quickly support answers"): the support ticket, not support.
        doers = _doers(texts, config) if acted_on else set()
        acting = ACTS + (FOCUS if refused else 0.0)
        found = [Topic(t.phrase, t.score + acting, t.plural)
                 if _acts(t.phrase, verbs, pairs, config) and not _acts(t.phrase, verbs, doers, config) else t
                 for t in found]
    found.sort(key=lambda t: -t.score)
    return found


def situation_named(turn: TurnLike) -> str | None:
    """The name the answer gives the situation a "what happens when/if ...?" question described: the subject of its
    sentence "<noun> happens/occurs when ..." ("A conflict happens when two people change the same file before
    syncing." -> "a conflict"); None for another question or an answer that names none."""
    if not _WHAT_HAPPENS.match(turn.question):
        return None
    for text in (*turn.answer_sentences, *turn.cited_texts):
        if named := _NAMED.search(text):
            return f"a {named.group('noun').lower()}"
    return None


def _neighbours(texts: Sequence[str], config: PipelineConfig) -> set[tuple[str, str]]:
    """The stems of content words standing next to each other in the texts (auxiliaries and stop words left out:
    "the currency cannot be changed" gives currency-change), both ways round."""
    pairs: set[tuple[str, str]] = set()
    for text in texts:
        stems = [stem_of(w, config) for w in words_of(text) if is_content(w)]
        stems = [stem for stem in stems if stem]
        for a, b in zip(stems, stems[1:], strict=False):
            pairs.update({(a, b), (b, a)})
    return pairs


def _doers(texts: Sequence[str], config: PipelineConfig) -> set[tuple[str, str]]:
    """The (noun, verb) stems the texts write only as a subject and its verb in the active: a content word right
    before a verb in the present that no participle or auxiliary marks passive ("support answers"), and never the
    other way round ("answer tickets")."""
    subject: set[tuple[str, str]] = set()
    after: set[tuple[str, str]] = set()
    for text in texts:
        content = [w for w in words_of(text) if is_content(w)]
        for a, b in zip(content, content[1:], strict=False):
            noun, verb = stem_of(a, config), stem_of(b, config)
            if not noun or not verb:
                continue
            after.add((verb, noun))
            if b.start - a.end <= 1 and not is_participle(b) and b.lower.endswith("s") and not a.lower.endswith("s"):
                subject.add((noun, verb))  # "support answers": a singular subject, a verb in -s right after it
    return {pair for pair in subject if pair not in after}


def _acts(phrase: str, verbs: frozenset[str], pairs: set[tuple[str, str]], config: PipelineConfig) -> bool:
    """Whether the phrase's last word stands next to one of the verbs in the passages."""
    words = words_of(phrase)
    head = stem_of(words[-1], config) if words else ""
    return bool(head) and any((head, verb) in pairs for verb in verbs)


def _place_phrase(question: str, words: list[Word], end: int) -> str:
    """The place phrase that follows a run, directly or after a participle, to the question's end ("in the trash"
    after "deleted files kept"); else ""."""
    at = end + 1 if end < len(words) and is_participle(words[end]) else end
    if at >= len(words) - 1 or words[at].lower not in _PLACE_PREPOSITIONS:
        return ""
    rest = words[at + 1 :]
    if rest[0].lower in DETERMINERS:
        rest = rest[1:]
    if not rest or not all(is_content(w) for w in rest):
        return ""
    return _END_PUNCTUATION.sub("", question[words[at].start :])


def _is_heading(line: str) -> bool:
    return 0 < len(line.split()) <= 6 and not line.rstrip().endswith((".", ":"))


def _headings(texts: Sequence[str]) -> list[list[Word]]:
    """The short lines of the cited passages: their source titles and headings ("Share links")."""
    return [words_of(line) for text in texts for line in text.splitlines() if _is_heading(line)]


def _extension(stems: list[str], headings: list[list[Word]], config: PipelineConfig) -> str:
    """The phrase as a title or heading writes it with the content word it opens with or puts after an article
    ("link" -> "Share links"; not a gerund: "Restoring files"); else ""."""
    n = len(stems)
    seen: Counter[str] = Counter()
    for words in headings:
        tokens = [stem_of(w, config) for w in words]
        for i in range(1, len(tokens) - n + 1):
            before = words[i - 1]
            opens = i == 1 or words[i - 2].lower in DETERMINERS
            if (tokens[i : i + n] == stems and tokens[i - 1] and is_content(before) and opens
                    and not before.lower.endswith("ing")):
                seen[" ".join(w.text for w in words[i - 1 : i + n])] += 1
    return seen.most_common(1)[0][0] if seen else ""


def as_in_text(phrase: str, texts: Sequence[str]) -> str:
    """A heading's words in the case the passages' sentences mostly write them in ("Share links" -> "share links";
    "Lumora" stays)."""
    lower: Counter[str] = Counter()
    for text in texts:
        for line in text.splitlines():
            if not _is_heading(line):
                for w in words_of(line):
                    lower[w.lower] += 1 if w.text.islower() else -1
    return " ".join(word.lower() if lower[word.lower()] > 0 else word for word in phrase.split())


def modifiers_of(noun: str, texts: Sequence[str], allowed: set[str], *, config: PipelineConfig) -> str:
    """The longest run of words the texts put right before the noun (a stem) that are all words of `allowed`
    ("password reset" of "Password reset links", with the previous question's words allowed); else ""."""
    best: list[str] = []
    for text in texts:
        words = words_of(text)
        for i, word in enumerate(words):
            if stem_of(word, config) != noun:
                continue
            start = i
            while start > 0 and is_content(words[start - 1]) and stem_of(words[start - 1], config) in allowed:
                start -= 1
            if i - start > len(best):
                best = [w.text for w in words[start:i]]
                if _opens_sentence(text, words[start].start) and best[0][1:].islower():
                    best[0] = best[0].lower()  # "Password reset links expire ...": capital only as the first word
    return as_in_text(" ".join(best), texts) if best else ""


def _opens_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip(" ")
    return not before or before[-1] in ".!?:\n"


def cited_title(cited_texts: Sequence[str]) -> str:
    """The title of the first cited passage when it is short ("Two-factor authentication"); else ""."""
    first = cited_texts[0].strip() if cited_texts else ""
    title = first.splitlines()[0] if first else ""
    return as_in_text(title, cited_texts) if 0 < len(title.split()) <= 4 else ""


def key_term(texts: Sequence[str], exclude: set[str], *, config: PipelineConfig) -> str:
    """The word the texts repeat most (the first to appear, on a tie: a title's) that is not in `exclude` ("trash")."""
    counts: Counter[str] = Counter()
    written: dict[str, str] = {}
    for text in texts:
        for word in words_of(text):
            stem = stem_of(word, config)
            if stem and " " not in stem and stem not in exclude and not word.text[0].isdigit():
                counts[stem] += 1
                written.setdefault(stem, word.lower)
    return written[counts.most_common(1)[0][0]] if counts else ""
