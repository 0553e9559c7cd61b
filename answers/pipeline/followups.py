"""Follow-up questions (§6a): an elliptical or referring question rewritten into a standalone one before retrieval.

`resolve_question(question, history, config=...)` works offline from the previous turns' questions, answers and
cited passages. The rule, word by word and without part-of-speech tagging:

1. With no history, or a question that needs none, the question is returned exactly as asked. Being conservative
   is the point: rewriting a standalone question is worse than missing a follow-up.
2. A question is a follow-up when it is
   - a *fragment*: it opens with "and", "or", "but", "also" not followed by a question word or an auxiliary ("and
     for macOS?", "and downgrade?"), opens with a preposition ("on which plan?", "through the desktop app?"), is
     "what/how about X" with a short X (at most `max_fragment_terms` significant terms: "what about the Team plan?",
     not "what about the storage included in a trial workspace?", nor "what about guests, are they charged as
     users?", whose clause after the comma is a question of its own), is a bare noun phrase of at most two terms
     ("Windows?", "the Oregon one?"), or a phrase with "too/as well/either" and no verb ("German too?"; not "are
     taxes refunded too?", which opens with an auxiliary);
   - a *sameness* question: "is that the same on mobile?", "same for bulk endpoints?", "does the same apply to
     guests?", a clause "that" with one predicate word and a new case ("is that available on Android too?", "does
     that apply to guests?"), or a condition on the speaker that only names the case ("and if I'm on the Team
     plan?"); "to X" is read as "for X";
   - *referring*: it holds "it", "that", "this", "they", "them", "their", "its", "one(s)", "there" or "mine/theirs/
     yours/ours" with no antecedent in the question itself. An antecedent stands in an earlier clause (after a comma
     or "if/when/after/and ..."): a pronoun does not name a noun of its own clause ("can I put a password on *it*?",
     the share link; "if I delete a file, can I restore it?" keeps its own). For "it" it is any content word but the
     asked-for noun of "which/how many X"; for "they/them" a plural one, which may be it ("which files can I restore
     after I delete them?"); never the word right before the pronoun (its verb: "who manages them") nor a light verb.
     Left out: the expletive "is it possible/true/... to/that" (but "is it free?" refers), the existential "is
     there", "one" before a noun ("one file", not "use one twice"), a relative "that" (after a noun, with a clause
     after it: not "make that mandatory", where a closing adjective follows), and "after that";
   - *elided*: "how many/much" followed by no noun ("how many do I get?"), or "more/another" closing the question
     ("can I get more?");
   - *definite and thin*: at most two significant terms, one of them a single noun after "the/each/every" that the
     previous answer or its cited passages mention ("how long are the codes valid?", "how is each request signed?");
   - *conditional*: "what if ..." or "what happens if/when ..." with at most two significant terms.
3. The rewrite carries the previous question's topic. A fragment replaces the phrase of the previous question it
   parallels (same last word: "the Business plan" -> "the Team plan"; "an annual one" -> the head noun of the phrase
   after the same preposition, "an annual plan"; a name for a name that no other preposition governs: "iOS" ->
   "Android", but "on Android" is no case of "with Face ID"; a lone verb for the verb after "I": "and downgrade?"),
   replaces the same-preposition phrase a previous rewrite appended, or is appended with its preposition ("How long
   do refunds take for digital goods?"); a wh-fragment goes in front of an auxiliary-first question ("on which plan
   does Lumora support single sign-on?"). A pronoun is replaced by the topic phrase of its number (topics.py);
   "it" takes a plural topic in the singular, at a discount, only when the texts write that singular ("a personal
   access token", never "a support hour"); "one" the topic in the singular with "a/an" ("restore a version");
   "ones" and "more" the bare plural; "mine" "my" + the topic; "do that/this/it" with nothing but adverbs after it
   the previous question's verb phrase when it was asked as "I/we" ("who can do this?" after "Can I restore a
   deleted file?" -> "who can restore a deleted file?"; "doing that" -> "emptying the trash"); "there" becomes "in
   the <word the cited passages repeat most>", and a conditional question takes the first cited passage's title
   ("... with two-factor authentication").
4. Choosing the topic (topics.py). A verb that word order gives away is no part of a phrase: a word between a noun
   and an article ("attempts *lock* an account"), a participle closing a run ("is a credit card *needed*"), the word
   after "who" and an auxiliary ("who can *see* invoices"), and the verb closing a question whose object was fronted
   ("what does the Business plan *cost*?"). A phrase the previous question puts in a place keeps it ("deleted files
   [kept] in the trash"). The noun a "which/how many X" question asks for is a candidate too, two words before an
   auxiliary ("which data centres does"), in the singular for "it". Phrases are ranked by length, how often the
   cited passages and answers of the recent turns repeat them (a phrase they do not repeat, in a run they write
   part of, is likely a noun and a verb; one that stops before its run's head noun counts less), whether another
   recent question holds them too (the conversation's topic, not a passing object: "a share link" after "create a
   share link" and "put a password on a share link"), and age; a turn the documents did not answer does not age
   the turns before it. A phrase whose last word the passages put right next to the word around the pronoun gets a
   bonus ("when it *ends*" after "the trial end date"). A definite noun takes the words the passages write before
   it when they are words of the previous question ("the link" after "How do I reset ...?" -> "the password reset
   link").

Since the second held-out part: "that" as the object of a verb or preposition ("can an admin turn *that* off?",
"make that mandatory", "told about that") stands for the previous question's verb phrase as a gerund when it was
asked as "I/we" or "who can ..." ("emptying the trash"), and "do that" takes a "who can" question's verb phrase
too; after a question the documents refused, a pronoun is about what that question asked (topics.FOCUS) unless an
older phrase acts with the pronoun's verb; after "which X ...?", "it" and an elided "how many" are about the X
(topics.ASKED); a short question with no topic of its own, only what it asks for and verbs ("which standard is
used?", "how do I resume?", "how many retries?") takes the previous verb's object ("resume syncing") or "for" the
previous verb phrase or topic.

Since the third held-out part: a closing number of a fragment stands for the previous question's one number ("and
below 99%?" after "... below 99.9%?"; "99.9%" is one word); "one" before a word that looks plural is a pronoun with
its verb ("when one expires"); "what if" with a definite noun takes the definite noun's rule first ("what if the
link has expired?" -> the password reset link); "there" after a "where" question is the place it asked for ("in the
workspace settings page"); "it/them" after a verb is the thing the previous answer or its passages do that verb to
after a determiner, when they name one thing the previous question did not ("who can reset it?" after an answer
citing "reset your 2FA"); the head of "X of Y" is X ("a report of active share links"); for "it", a plural asked-for
noun in the singular ranks below a singular thing the question names ("is it free?" after "Which operating systems
does the desktop app support?"); and a refused question's phrase gets no bonus for a word an older question shares
("a GraphQL API", not "API").

Since the fourth held-out part: "what about X, <question>?" whose clause after the comma opens with an auxiliary or a
question word asks it all and is left as asked ("What about guests, are they charged as users?"); "can X do that?"
with a subject noun of its own, after a question "<modal> <noun> <verb> ...", takes the verb phrase after that noun
("can guests do that?" after "Can members empty their own trash?" -> "Can guests empty their own trash?").

Since the fifth held-out part, two rules read the previous turn's structure instead of its wording: "they" after a
"who ...?" question is whom its answer names, the agent of a passive or the subject before its verb (answered.py:
"can they change the billing contact?" after "Who can see invoices?" -> "Can the workspace owner and billing admins
change ...?"); and a question no other rule takes, which names nothing of the previous passage's title, headings or
question yet leans on something named before (a modal with no verb, "a different date", a definite noun on its own,
one content word) and whose words one sentence of that passage mostly holds, gets the passage's heading path beside
it (continuation.py: "Who can pick a different date (Share links, Link expiry)?").

Since the sixth held-out part joined dev, four rules read structure: a question that is only what it asks for
("how many times?", "how much storage?") takes the previous question's predicate; a three-term bare phrase whose
head the previous question has ("Team plan users?") replaces that slot; "then", "beforehand" or "afterwards" takes
the previous topic and its if/when clause; a pronoun whose topic no cited sentence writes with the rest of the
question takes the subject of the cited sentence that holds all of its other words, two or more ("which standard
do they use?" -> security keys).

Since the seventh held-out part joined dev: "them/their" after a "who ...?" question is whom its answer names when
a word of getting in touch stands beside it ("can I email them?"); a thin question "<wh> do/does the <noun> <verb>?"
or with a gerund subject, whose noun the previous turn never wrote, takes "for" the previous question's verb phrase
asked as I/we ("where does the money go?" after "Can I get a refund if ...?"); "same question for X" is a sameness
question; a participle fragment ("limited to a number of downloads?") replaces the previous passive's participle
phrase; "how many of those" counts the thing the previous answer introduced with "a/an"; "that" after "what is the
...?" is that thing.

Since the eighth held-out part joined dev: a plural pronoun in a relative clause may name a plural noun of the clause
the relative hangs on, never the noun it hangs on ("Can guests see files that are not shared with *them*?" holds its
own antecedent, guests, and is left as asked; "Can I see the files that are shared with them?" still refers);
"that/this <noun>" is the thing as the previous answer named it, with the words it wrote before the noun ("can I
change that contact?" -> "the billing contact"); "<modifier> ones" is the previous question's noun, not its closing
participle ("annual ones?" -> "annual invoices", not "issueds"); "one" as the subject of a passive ("when is one
created?") is one of the topic, a possessive head losing its "'s" ("a conflicted copy"); "get in touch with them"
after "who ...?" is whom the answer names; "it" for the act the previous question asked as "I/we" is that act as a
cited sentence names it with the rest of the question ("when does it take effect?" after "Can I downgrade from
Business to Team?" -> "a downgrade from Business to Team", the passage writing "A downgrade ... takes effect");
"the <name> one" is the noun the name it parallels names ("the Business one?" after "How much does the Team plan
cost per user?" -> "the Business plan"; "per" is a preposition); a verbless phrase takes the place of the previous
question's phrase it parallels: after the same "of" or "to" ("of the mobile app?", "to existing files?"), or, for a
noun with a phrase after it, the phrase of that noun ("customers in India?" for "Business customers", "files in the
trash?" for "older file versions"); "they" after a "who ...?" question whose answer names nobody is whom the
cited sentence holding the whole question names ("Only the workspace owner can request a refund.").

Known misses (the measured shares are in the README's evaluation section): a thin question about a definite thing
the previous answer did not name after a question not asked as I/we ("where does the money go?" after "How long do
refunds take?") is left alone (a rule taking "for" the topic rewrote standalone golden questions: "What is the uptime
SLA?"), while one asked right after an I/we question is taken for a follow-up even when it is standalone ("When does
the trial end?" after "How do I request a refund?"); a subject "they" that
means the previous question's subject ("can they do that?" after "can admins ...?") takes the topic; a thin question
with a topic of its own that is still a follow-up ("how long does processing take?", "what does the second copy get
called?") is taken for a standalone one when the previous passages do not write it, while a standalone question that
only *looks* thin can be taken for a follow-up; a word the passages use but no question does ("conflicted copy") is
never the topic unless it is what they do the pronoun's verb to; an imperative fragment with no conjunction ("list
them") is not detected; the rewrite is not always grammatical English ("turn emptying the trash off"; verb agreement
is not fixed): it is a search question.
"""
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answers.pipeline.answered import who_answered
from answers.pipeline.config import PipelineConfig
from answers.pipeline.continuation import continued_passage, with_passage
from answers.pipeline.text.questions import question_terms
from answers.pipeline.text.tokens import significant_terms, tokenize
from answers.pipeline.topics import (
    AUXILIARIES,
    CONJUNCTIONS,
    DETERMINERS,
    LIGHT_VERBS,
    MODALS,
    PREPOSITIONS,
    QUESTION_WORDS,
    REFERRING,
    SUBJECTS,
    Topic,
    Word,
    cited_title,
    is_content,
    is_name,
    is_participle,
    is_plural,
    key_term,
    modifiers_of,
    not_topic,
    plural_of,
    singular,
    stem_of,
    topic_skips,
    topics_of,
    words_of,
)


@dataclass(frozen=True)
class Turn:
    """One earlier turn of a conversation: the question it answered (its standalone form), the sentences shown,
    and the text of the passages they cited."""

    question: str
    answer_sentences: tuple[str, ...] = ()
    cited_texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolution:
    """What will be answered: the question itself (resolved False) or its standalone rewrite, and how it was found."""

    question: str
    resolved: bool
    note: str = ""


@dataclass(frozen=True)
class FollowupRules:
    """The resolver's limits."""

    max_fragment_terms: int = 3  # a longer "what about X" or "for X" is a question of its own
    max_thin_terms: int = 2  # a definite or conditional question with more terms than this is left alone
    history_turns: int = 2  # how many earlier turns the topic is looked for in
    max_topic_words: int = 4


RULES = FollowupRules()

DISAGREES = 0.7  # the weight of a plural topic put in the singular for "it" ("invoices": an invoice)
UNATTESTED = 0.5  # the weight of a plural topic for "it" whose singular the texts never write
# Verbs and nouns of getting in touch: their object, or what "their" owns, is a person ("email them", "their address").
_CONTACTING = ("email", "contact", "reach", "call", "phone", "message", "write", "ask", "address", "number", "touch")
_LEADING = frozenset({"so", "and", "then", "but", "also"})  # words a question may open with before its question word
_DEMONSTRATIVES = frozenset({"those", "these", "them"})  # "how many of those": the things named before
_DO = frozenset({"do", "does", "did"})  # do-support: the word after the subject is the verb
_DEGREE = frozenset({"long", "often", "much", "many", "soon", "fast", "quickly"})  # "how long", "how fast"
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "ones"})
# "is it possible to ...?", "is it true that ...?"; not "is it free?", where "it" is the thing
_EXPLETIVE = re.compile(
    r"it\s+(?:possible|true|necessary|ok|okay|safe|required|allowed|worth|free)\s+(?:to|that|for|if|whether)\b", re.I
)
_WHAT_ABOUT = re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:what|how)\s+about\s+(?P<rest>.+)$", re.I)
_SAME = re.compile(
    r"^\s*(?:and\s+)?(?:(?:is|are|does|do|would|will)\s+(?:(?:that|it|this|they|those)\s+(?:also\s+)?(?:be\s+)?)?)?"
    r"(?:the\s+)?same\s+(?:(?:question|thing|answer)\s+)?(?:(?:apply|applies|go|goes|hold|holds|true)\s+)?"
    r"(?P<rest>(?:for|on|in|with|at|over|through|via|to)\b.+)$",
    re.I,
)
# "is that available on Android too?": a clause pronoun, one predicate word, and the new case.
_CLAUSE = re.compile(
    r"^\s*(?:and\s+)?(?:is|are|does|do|would|will|can)\s+(?:that|this)\s+(?:also\s+)?(?P<predicate>\S+)\s+"
    r"(?P<rest>(?:for|on|in|with|at|over|through|via|to)\b.+)$",
    re.I,
)
# Predicate words that say a clause holds ("is that *available* on ...", "does that *work* for ...").
_PREDICATES = frozenset({"available", "possible", "supported", "true", "allowed", "included", "required", "offered",
                         "work", "works", "apply", "applies", "happen", "valid", "free", "enabled", "needed", "hold"})
# "if I'm on the Team plan": a condition on the speaker that only names the new case
_IF_I = re.compile(
    r"^\s*(?:(?:and|but|so)\s+)?(?:what\s+)?(?:if|when)\s+(?:i|we)(?:'m|'re|\s+am|\s+are|\s+have|\s+use)?"
    r"(?:\s+using)?\s+(?P<rest>(?:on|in|with|at|for|using)\b.+)$",
    re.I,
)
# "German too?", "and for guests as well?": a case added to the previous question.
_TOO = re.compile(r"\s*(?:,\s*)?\b(?:too|as\s+well|either)\s*[?.!]*\s*$", re.I)
# Closed-class words that can follow a pronoun "one" as an adverb, not as its noun ("use one *twice*").
_ADVERBS = frozenset({"twice", "again", "later", "instead", "anymore", "first", "back", "up", "off", "out", "away",
                      "now", "too", "more", "here", "there", "yet", "still", "once", "already"})
# Words that open a clause: an antecedent in the question stands before one of them.
_CLAUSE_OPENERS = frozenset({"if", "when", "after", "before", "once", "until", "unless", "because", "while", "and",
                             "but", "so", "since", "whether"})
_RELATIVES = frozenset({"that", "which", "who"})  # after a noun: a relative clause about that noun
_PRO_VERBS = frozenset({"do", "does", "did", "doing"})  # "do that": the previous question's verb phrase
# Words that take an object and are in no other list: "told *about* that"
_OBJECT_PREPOSITIONS = frozenset({"about", "of", "to", "against", "into"})
_TEMPORAL = frozenset({"after", "before", "since", "until", "like"})  # "after that", "like this"
_POSSESSIVES = {"mine": "my", "yours": "your", "theirs": "their", "ours": "our"}
_ELIDING = frozenset({"more", "another", "fewer"})  # a last word whose noun is left out ("can I get more?")
# Adverbs that stand for the situation the previous question set ("then", "beforehand"), never "still" or
# "instead", which a question of its own holds as often ("Is Internet Explorer still supported?").
_SITUATION_ADVERBS = frozenset({"then", "beforehand", "afterwards", "afterward", "meanwhile"})
_SITUATION_OPENERS = frozenset({"if", "when", "after", "once", "before", "while"})
_WHAT_IF = re.compile(r"^\s*(?:and\s+)?what\s+(?:if|happens\s+(?:if|when))\b", re.I)
_END = re.compile(r"[?.!\s]+$")


def resolve_question(
    question: str, history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules = RULES
) -> Resolution:
    """The standalone form of a question asked after `history` (oldest first); the very same string unless it is
    a follow-up."""
    unchanged = Resolution(question, False)
    if not history or not question.strip():
        return unchanged
    rewrite = _rewrite(question.strip(), history, config=config, rules=rules)
    if rewrite is None:
        return unchanged
    text, note = _tidy(rewrite[0]), rewrite[1]
    if text.lower() == _tidy(question).lower():
        return unchanged
    return Resolution(text, True, note)


def _tidy(text: str) -> str:
    """One line, no space before punctuation, a capital first and one question mark last."""
    text = _END.sub("", re.sub(r"\s+([?,.!])", r"\1", re.sub(r"\s+", " ", text).strip()))
    return text[:1].upper() + text[1:] + "?"


def _terms(text: str, config: PipelineConfig) -> list[str]:
    return tokenize(text, config.tokenizer)


def _rewrite(
    question: str, history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules
) -> tuple[str, str] | None:
    """The rewrite and a note saying which rule made it, or None for a standalone question."""
    previous = history[-1].question.strip()
    if not words_of(previous):
        return None
    if same := _SAME.match(question):
        rest = _to_for(_END.sub("", _TOO.sub("", same.group("rest"))))
        return _noted(_fragment(rest, previous, history, config=config), "sameness: the previous question, new case")
    if if_i := _IF_I.match(question):
        rest = _to_for(_END.sub("", _TOO.sub("", if_i.group("rest"))))
        if len(_terms(rest, config)) <= rules.max_fragment_terms:
            return _noted(_fragment(rest, previous, history, config=config), "ellipsis: a condition naming a case")
    if (clause := _CLAUSE.match(question)) and clause.group("predicate").lower() in _PREDICATES:
        rest = _to_for(_END.sub("", _TOO.sub("", clause.group("rest"))))
        if len(_terms(rest, config)) <= rules.max_fragment_terms:
            return _noted(_fragment(rest, previous, history, config=config),
                          "sameness: the previous question, new case")
    if about := _WHAT_ABOUT.match(question):
        rest = _END.sub("", about.group("rest"))
        if _asks_after_comma(rest):
            return None  # "What about guests, are they charged as users?": the clause asks it all, about X
        if len(_terms(rest, config)) > rules.max_fragment_terms:
            return None
        return _noted(_fragment(rest, previous, history, config=config), "ellipsis: what about")
    words = words_of(question)
    if not words:
        return None
    opener = words[0].lower
    if (passive := _participle_fragment(question, words, previous, config=config, rules=rules)) is not None:
        return passive, "ellipsis: a new participle for the previous passive"
    if _TOO.search(question) and not (opener in QUESTION_WORDS or opener in AUXILIARIES or opener in SUBJECTS
                                      or opener in CONJUNCTIONS or opener in PREPOSITIONS):
        rest = _END.sub("", _TOO.sub("", question))  # "German too?": no verb of its own, a case of the previous one
        if 0 < len(_terms(rest, config)) <= rules.max_fragment_terms:
            return _noted(_fragment(rest, previous, history, config=config), "ellipsis: a case with 'too'")
    closing_one = len(words) > 1 and words[-1].lower in ("one", "ones") and is_content(words[-2])  # "the Oregon one"
    if (all(is_content(w) or w.lower in DETERMINERS for w in (words[:-1] if closing_one else words))
            and 0 < len(_terms(question, config)) <= (3 if _heads_parallel(words, previous, config) else 2)):
        # "Windows?": a noun phrase and nothing else, no question of its own
        return _noted(_fragment(_END.sub("", question), previous, history, config=config), "ellipsis: a bare phrase")
    if words[0].lower in CONJUNCTIONS and len(words) > 1:
        second = words[1]
        if second.lower in QUESTION_WORDS or second.lower in AUXILIARIES:
            question = question[second.start :]  # "And how do I ...?": a question of its own after the "and"
            words = words_of(question)
        else:
            rest = _END.sub("", _TOO.sub("", question[second.start :]))
            if len(_terms(rest, config)) > rules.max_fragment_terms + 1:
                return None
            return _noted(_fragment(rest, previous, history, config=config), "ellipsis: a fragment after a conjunction")
    elif words[0].lower in PREPOSITIONS:
        rest = _END.sub("", _TOO.sub("", question))
        if len(_terms(rest, config)) > rules.max_fragment_terms:
            return None
        return _noted(_fragment(rest, previous, history, config=config), "ellipsis: a fragment")
    if (phrase := _phrase_in_place(question, words, previous, config=config, rules=rules)) is not None:
        return phrase, "ellipsis: a phrase in place of the previous question's own"
    if slot := _wh_slot(question, words, previous, config=config, rules=rules):
        return slot, "ellipsis: a new asked-for slot, the previous predicate"
    if situated := _situated(question, words, history, config=config):
        return situated, "reference: an adverb standing for the previous situation"
    return _refer(question, words, history, config=config, rules=rules) or _continued(question, history[-1], config)


def _phrase_in_place(question: str, words: list[Word], previous: str, *, config: PipelineConfig,
                     rules: FollowupRules) -> str | None:
    """A verbless phrase put in place of the previous question's phrase it parallels: one opening with "of" or "to"
    for the previous phrase after the same word ("of the mobile app?" after "... a Linux version of the desktop
    app?", "to existing files?" after "What happens to uploads when ...?"), or a noun with a phrase after it whose
    head the previous question has ("customers in India?" for "Business customers"); None for any other question."""
    if any(w.lower in AUXILIARIES or w.lower in SUBJECTS or w.lower in QUESTION_WORDS or w.lower in REFERRING
           or w.lower in CONJUNCTIONS for w in words) or len(_terms(question, config)) > rules.max_fragment_terms:
        return None
    before = words_of(previous)
    text = _END.sub("", question).strip()
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


def _participle_fragment(question: str, words: list[Word], previous: str, *, config: PipelineConfig,
                         rules: FollowupRules) -> str | None:
    """A fragment opening with a past participle and holding no verb of its own ("limited to a number of
    downloads?") put in place of the participle phrase of a previous passive question ("Can a share link be
    protected with a password?" -> "Can a share link be limited to a number of downloads?"); None otherwise."""
    if not is_participle(words[0]) or len(_terms(question, config)) > rules.max_fragment_terms + 1:
        return None
    if any(w.lower in AUXILIARIES or w.lower in SUBJECTS or w.lower in QUESTION_WORDS or w.lower in REFERRING
           for w in words):
        return None
    before = words_of(previous)
    if not before or before[0].lower not in AUXILIARIES:
        return None
    for i, word in enumerate(before[2:], start=2):
        if is_participle(word) and before[i - 1].lower in ("be", "been"):
            return previous[: word.start] + _END.sub("", question)
    return None


def _introduced(turn: Turn, config: PipelineConfig) -> str:
    """The thing the previous answer introduces, in the plural: the first "a/an <noun>..." of its sentences that
    the question did not name ("sign in with *a backup code*" -> "backup codes"); "" when there is none."""
    asked = set(_terms(turn.question, config))
    for sentence in turn.answer_sentences:
        words = words_of(sentence)
        for i, word in enumerate(words[:-1]):
            if word.lower not in ("a", "an"):
                continue
            run = list(itertools.takewhile(lambda w: is_content(w) and not is_participle(w), words[i + 1 : i + 4]))
            if run and not set(_terms(" ".join(w.text for w in run), config)) & asked and not is_plural(run[-1].text):
                return " ".join([*(w.text for w in run[:-1]), plural_of(run[-1].text)])
    return ""


def _wh_slot(question: str, words: list[Word], previous: str, *, config: PipelineConfig, rules: FollowupRules
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
    if len(_terms(question, config)) > rules.max_thin_terms:
        return None
    before = words_of(previous)
    text = _END.sub("", question).strip()
    if before[0].lower in AUXILIARIES:
        return f"{text} {previous[:1].lower()}{previous[1:]}"
    if before[0].lower in QUESTION_WORDS and before[0].lower != "who":
        verb = next((i for i, w in enumerate(before) if w.lower in AUXILIARIES), None)
        if verb is not None and verb > 0:
            return f"{text} {previous[before[verb].start:]}"
    return None


def _situated(question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig) -> str | None:
    """A question whose adverb stands for the situation the previous question set ("can I still download my files
    *then*?", "are admins told *beforehand*?") with that situation beside it: the previous question's topic and its
    clause after "if/when/after/once/before" ("... then, for a card payment, if a card payment fails"); None for a
    question with no such adverb, or one whose own clause sets the situation ("if I delete it, then ...")."""
    if not any(w.lower in _SITUATION_ADVERBS for w in words) or any(w.lower in _CLAUSE_OPENERS for w in words):
        return None
    previous = history[-1].question.strip()
    before = words_of(previous)
    opener = next((w for w in before[1:] if w.lower in _SITUATION_OPENERS), None)
    clause = _END.sub("", previous[opener.start :]) if opener else ""
    topic = _bare(_topic(history, plural=None, config=config))
    if topic and clause and set(_terms(topic, config)) <= set(_terms(clause, config)):
        topic = ""
    about = ", ".join(part for part in (f"for {topic}" if topic else "", clause) if part)
    return f"{_END.sub('', question)}, {about}" if about else None


def _heads_parallel(words: list[Word], previous: str, config: PipelineConfig) -> bool:
    """Whether a phrase's head, its last word, is a content word of the previous question too: "Team plan users"
    after "Can Business plan users ...?" is a slot of the same kind, so a longer phrase is still a case of it."""
    head = stem_of(words[-1], config) if words else ""
    return bool(head) and any(stem_of(w, config) == head for w in words_of(previous) if is_content(w))


def _continued(question: str, latest: Turn, config: PipelineConfig) -> tuple[str, str] | None:
    """A question that goes on reading the previous answer's cited passage, with that passage's headings beside it
    (continuation.py); None for one that names its own subject."""
    path = continued_passage(question, latest.question, latest.cited_texts, config=config)
    return (with_passage(question, path), "reference: goes on from the previous passage") if path else None


def _asks_after_comma(rest: str) -> bool:
    """Whether "what about X, ..." goes on after its phrase with a question of its own, opening with an auxiliary
    or a question word ("guests, are they charged as users")."""
    _, comma, clause = rest.partition(",")
    words = words_of(clause)
    return bool(comma and words) and (words[0].lower in AUXILIARIES or words[0].lower in QUESTION_WORDS)


def _to_for(case: str) -> str:
    """A case opening with "to" or "using" as one opening with a preposition the rewrite appends ("to guests" ->
    "for guests")."""
    first, _, rest = case.partition(" ")
    if first.lower() == "to":
        return f"for {rest}"
    if first.lower() == "using":
        return f"with {rest}"
    return case


def _noted(rewrite: str | None, note: str) -> tuple[str, str] | None:
    return None if rewrite is None else (rewrite, note)


def _append(previous: str, fragment: str) -> str:
    """The previous question with the fragment added at its end ("... take for digital goods?"), or put in place of
    the phrase the previous question ends with when it has the same preposition (a chain of "and for X?")."""
    fragment = _END.sub("", fragment).strip()
    previous = _END.sub("", previous)
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


def _fragment(fragment: str, previous: str, history: Sequence[Turn], *, config: PipelineConfig) -> str | None:
    """The previous question rewritten for an elliptical fragment ("the Team plan", "for macOS", "downgrade"); None
    for a fragment that names nothing ("for?")."""
    fragment = _one_as_head(fragment, previous)
    fragment = _substitute_pronouns(fragment, words_of(fragment), history, config=config) or fragment
    words = words_of(fragment)
    if not any(is_content(w) for w in words):
        return None
    core = [w for w in words if w.lower not in PREPOSITIONS | DETERMINERS | CONJUNCTIONS]
    if not core:
        return None
    before = words_of(previous)
    if (number := _parallel_number(core, before)) is not None:  # "and below 99%?" after "... below 99.9%?"
        return previous[: before[number].start] + core[-1].text + previous[before[number].end :]
    if any(w.lower in QUESTION_WORDS for w in words) and before and before[0].lower in AUXILIARIES:
        return f"{fragment} {previous[:1].lower()}{previous[1:]}"  # "on which plan does Lumora support SSO?"
    if (len(words) >= 3 and is_content(words[0]) and not is_name(words[0], 1)
            and any(w.lower in PREPOSITIONS | DETERMINERS for w in words[1:])):
        return f"{_END.sub('', previous)} and {fragment}"  # a verb phrase: "... and download a report of them"
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
    verbs = topic_skips(before)
    nouns = [w for i, w in itertools.takewhile(lambda p: (is_content(p[1]) and p[0] not in verbs)
                                               or p[1].lower in DETERMINERS, enumerate(before[start:], start=start))]
    candidates = [w for w in nouns if is_content(w)] or heads
    if not candidates:
        return fragment
    if not nouns:  # no noun phrase right after the preposition: the content words that word order leaves nouns
        candidates = [w for i, w in enumerate(before[start:], start=start)
                      if is_content(w) and i not in verbs and not is_participle(w)] or candidates
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
        if len(run) > 1 and any(w.lower in _DO for w in words[:i]):
            run = run[:-1]  # "does the Team plan *cost*": do-support, the run closes with its verb
        if run:
            ends = [w for k, w in run if not is_participle(w)]
            return ends[-1] if ends else None
    return None


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


def _clause_start(question: str, words: list[Word], index: int) -> int:
    """The index of the first word of the clause the word at `index` stands in: after the last comma or
    subordinating word before it ("if I delete a file, *can* I restore it")."""
    for i in range(index - 1, 0, -1):
        if words[i].lower in _CLAUSE_OPENERS or "," in question[words[i - 1].end : words[i].start]:
            return i
    return 0


def _relative_start(words: list[Word], index: int) -> int | None:
    """The index of the relative pronoun ("that", "which", "who") opening the relative clause the word at `index`
    stands in, right after the content word it hangs on ("files *that* are not shared with them"); None when the
    word stands in no relative clause."""
    for i in range(index - 1, 1, -1):
        if words[i].lower in _RELATIVES and is_content(words[i - 1]) and words[i - 1].lower not in LIGHT_VERBS:
            return i
    return None


def _is_predicate(word: str) -> bool:
    """Whether a word closing the question after "that" says what it is made ("make that *mandatory*"): a predicate
    word or an adjective by its ending, not the verb of a relative clause."""
    return word in _PREDICATES or word.endswith(("ory", "able", "ible", "ive", "ful", "less", "ic", "al"))


def _governed_otherwise(words: list[Word], index: int, preposition: str) -> bool:
    """Whether the name at `index` follows a preposition (within its phrase) other than the fragment's."""
    for i in range(index - 1, max(index - 4, -1), -1):
        if words[i].lower in PREPOSITIONS:
            return bool(preposition) and words[i].lower != preposition
        if not (is_content(words[i]) or words[i].lower in DETERMINERS):
            return False
    return False


def _own_antecedent(question: str, words: list[Word], index: int, skipped: set[int], *, plural: bool) -> bool:
    """Whether a content word before the pronoun can be what it refers to: the question holds its own antecedent.

    It stands in an earlier clause: within its own clause a pronoun does not name a noun of that clause ("can I put
    a password on it?": not the password; that would be "itself"). For "they/them" it is a plural word, the
    asked-for noun included ("which files ... after I delete them"); for "it" any other content word ("if I delete
    a file, can I restore it?"), but not the asked-for noun ("how many members can it have?").
    """
    start = _clause_start(question, words, index)
    relative = _relative_start(words, index) if plural else None
    if relative is not None and relative > start:
        # "Can guests see files that are not shared with them?": a relative clause's plural pronoun may name a plural
        # noun of the clause it hangs on (guests), never the noun it hangs on (files: the relative stands for it)
        start = relative - 1
    for i in range(start):
        word = words[i]
        if not is_content(word) or word.lower in PREPOSITIONS or word.lower in LIGHT_VERBS:
            continue
        asked = i > 0 and words[i - 1].lower in ("which", "what", "many", "much")
        if plural and is_plural(word.text) and (i not in skipped or asked):
            return True
        if not plural and i not in skipped:
            return True
    return False


def _pointing(words: list[Word], question: str) -> list[int]:
    """Indexes of the pronouns of the question that point outside it."""
    skipped = not_topic(words)
    found = []
    for i, word in enumerate(words):
        w = word.lower
        following = words[i + 1].lower if i + 1 < len(words) else ""
        preceding = words[i - 1].lower if i > 0 else ""
        if w not in REFERRING or (w == "it" and _EXPLETIVE.match(question, word.start)):
            continue  # "is it possible to ...?"
        if w in ("that", "this") and preceding in _TEMPORAL and not following:
            continue  # "after that": a time, not a thing
        if w == "there" and (following in AUXILIARIES or preceding in AUXILIARIES):
            continue  # "is there a limit?"
        if w == "one" and ((following and following not in _ADVERBS and is_content(words[i + 1])
                            and not is_plural(words[i + 1].text)  # "one expires": its verb, not its noun
                            and not (preceding in AUXILIARIES and is_participle(words[i + 1])))  # "is one created"
                           or preceding in ("than", "least", "only", "no")):
            continue  # "one file", "more than one"; not "use one twice"
        if (w in ("that", "this") and following and i > 0 and is_content(words[i - 1])
                and (i - 1 not in skipped or following in AUXILIARIES)  # "which files that are shared"
                and not (i + 2 == len(words) and _is_predicate(words[i + 1].lower))
                and not all(x.lower in _ADVERBS for x in words[i + 1 :])):  # "turn that off": a particle, no clause
            continue  # "a file that ...": a relative, its antecedent right before it and its clause after it
        if w not in ("there", "that", "this") and _own_antecedent(question, words, i, skipped,
                                                                   plural=w in PLURAL_PRONOUNS):
            continue
        found.append(i)
    return found


def _topic(history: Sequence[Turn], *, plural: bool | None, config: PipelineConfig,
           verbs: frozenset[str] = frozenset()) -> str:
    """The best topic phrase of the last turns, of the number asked for when one has it."""
    topics = topics_of(history, config=config, turns=RULES.history_turns, max_words=RULES.max_topic_words,
                       verbs=verbs)
    if plural is False:  # "it" for "personal access tokens": a personal access token, if the texts write one
        written = {w.lower for turn in history[-RULES.history_turns :]
                   for text in (turn.question, *turn.answer_sentences, *turn.cited_texts) for w in words_of(text)}
        topics = [t if not t.plural else _in_singular(t, written) for t in topics]
        topics.sort(key=lambda t: -t.score)
    elif plural:
        topics = [t for t in topics if t.plural] or topics
    return topics[0].phrase if topics else ""


def _in_singular(topic: Topic, written: set[str]) -> Topic:
    """A plural topic for a singular pronoun: in the singular when the texts write its head so ("a token"), at a
    discount; else as it is, at a larger one ("support hours" for "it" is rather "support")."""
    words = topic.phrase.split()
    if singular(words[_head(words)].lower()) in written:
        return Topic(_singular_phrase(topic.phrase), topic.score * DISAGREES, False)
    return Topic(topic.phrase, topic.score * UNATTESTED, True)


def _singular_phrase(phrase: str) -> str:
    """A plural phrase in the singular, with an article when it has none ("share links" -> "a share link")."""
    words = phrase.split()
    words[_head(words)] = singular(words[_head(words)])
    if len(words) == 1 or words[0].lower() not in DETERMINERS:
        words.insert(0, "an" if words[0][:1].lower() in "aeiou" else "a")
    elif words[0].lower() in ("these", "those"):
        words[0] = "the"
    return " ".join(words)


def _verbs_around(words: list[Word], index: int, config: PipelineConfig) -> frozenset[str]:
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


def _addressed(words: list[Word], index: int, config: PipelineConfig) -> bool:
    """Whether "them/their" is whom the speaker would get in touch with: a verb or noun of contacting stands next
    to it ("email them", "reach them", "their phone number"), and no "they" of the question's own names the people
    already ("can they download them?" are things)."""
    if any(w.lower == "they" for w in words):
        return False
    return bool(_verbs_around(words, index, config) & set(_terms(" ".join(_CONTACTING), config)))


def _head(words: list[str]) -> int:
    """The index of a phrase's head noun: its last word before a preposition ("versions on the Team plan")."""
    for i, word in enumerate(words[1:], start=1):
        if word.lower() in PREPOSITIONS:
            return i - 1
    return len(words) - 1


def _indefinite(phrase: str) -> str:
    """The phrase in the singular with "a"/"an" for its determiner ("the versions" -> "a version")."""
    words = _bare(phrase).split()
    head = words[_head(words)]
    words[_head(words)] = head[:-2] if head.lower().endswith(("'s", "’s")) else singular(head)  # "copy's": a copy
    return f"{'an' if words[0][:1].lower() in 'aeiou' else 'a'} {' '.join(words)}"


def _predicate(previous: str, *, gerund: bool, light: bool = False) -> str:
    """The verb phrase of a question asked as "I/we" ("Can I *pause syncing*?") or as "who can ..." ("Who can
    *restore files from the trash*?"), its verb as a gerund if asked ("emptying the trash"); "" when the question
    has no such subject, or its verb is a light one ("get a refund") and `light` is not asked for."""
    words = words_of(previous)
    for i, word in enumerate(words[:-1]):
        subject = word.lower in SUBJECTS and i > 0 and words[i - 1].lower in AUXILIARIES
        asker = word.lower in MODALS and i > 0 and words[i - 1].lower == "who"
        if (subject or asker) and is_content(words[i + 1]) and (light or words[i + 1].lower not in LIGHT_VERBS):
            verb = words[i + 1].text
            return (_gerund(verb) if gerund else verb) + _END.sub("", previous[words[i + 1].end :])
    return ""


def _own_subject(words: list[Word], do: int) -> bool:
    """Whether "do that" has a subject noun of its own right before it, after a modal ("can *guests* do that?")."""
    return do >= 2 and words[do - 2].lower in MODALS and is_content(words[do - 1])


def _after_subject(previous: str) -> str:
    """The verb phrase of a question asked as "<modal> <noun> <verb> ..." ("Can members *empty their own trash*?",
    "Can the owner *delete the workspace*?"), for a "can X do that?" naming another subject; "" for another shape
    or a word after the noun that looks plural (no verb: "Can Business users ...")."""
    words = words_of(previous)
    if len(words) < 4 or words[0].lower not in MODALS or words[0].lower in _PRO_VERBS:
        return ""
    head = 2 if words[1].lower in DETERMINERS else 1
    verb = words[head + 1] if head + 1 < len(words) else None
    if (verb is None or not is_content(words[head]) or words[head].lower in SUBJECTS or not is_content(verb)
            or verb.lower in LIGHT_VERBS or is_plural(verb.text) or is_name(verb, head + 1)):
        return ""
    return _END.sub("", previous[verb.start :])


def _gerund(verb: str) -> str:
    """The -ing form of a verb by its spelling ("empty" -> "emptying", "lock" -> "locking", "stop" -> "stopping")."""
    lower = verb.lower()
    if lower.endswith("ie"):
        return verb[:-2] + "ying"
    if lower.endswith("e") and not lower.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", lower):  # one syllable ending consonant-vowel-consonant
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _adverbs_only(rest: list[Word]) -> bool:
    """Whether the words after "do that" add only adverbs or a phrase opening with a preposition."""
    return all(w.lower in _ADVERBS for w in rest) or rest[0].lower in PREPOSITIONS


def _object_position(words: list[Word], index: int) -> bool:
    """Whether the pronoun at `index` is the object of a verb or a preposition ("turn *that* off", "avoid *that*",
    "about *that*"), not a subject after an auxiliary ("is *that* free?") nor "do that"."""
    preceding = words[index - 1].lower
    if preceding in AUXILIARIES or preceding in QUESTION_WORDS or preceding in _PRO_VERBS or preceding in _TEMPORAL:
        return False
    return is_content(words[index - 1]) or preceding in PREPOSITIONS or preceding in _OBJECT_PREPOSITIONS


def _bare(phrase: str) -> str:
    """The phrase without its determiner ("a share link" -> "share link")."""
    first, _, rest = phrase.partition(" ")
    return rest if first.lower() in DETERMINERS and rest else phrase


def _substitute_pronouns(
    question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig
) -> str | None:
    """The question with each pronoun that points outside it replaced by the topic; None when none does."""
    pointing = _pointing(words, question)
    if not pointing:
        return None
    text = question
    for i in reversed(pointing):
        word = words[i]
        if word.lower in _POSSESSIVES:  # "see theirs": their storage usage
            topic = _bare(_topic(history, plural=None, config=config))
            if not topic:
                return None
            text = text[: word.start] + f"{_POSSESSIVES[word.lower]} {topic}" + text[word.end :]
            continue
        if (word.lower in ("it", "that", "this") and i > 0 and words[i - 1].lower in _PRO_VERBS
                and _adverbs_only(words[i + 1 :])  # "do that (too)", "do that for a folder", not "does that take"
                and (predicate := _predicate(history[-1].question, gerund=words[i - 1].lower == "doing")
                     or (_own_subject(words, i - 1) and _after_subject(history[-1].question)))):
            # "who can do this?" after "Can I restore a deleted file?": who can restore a deleted file
            text = text[: words[i - 1].start] + predicate + text[word.end :]
            continue
        if word.lower in ("that", "this") and (named := _demonstrated(words, i, history[-1], config)):
            # "can I change that contact?" after an answer naming "the billing contact": the thing as it was named
            text = text[: word.start] + named + text[words[i + 1].end :]
            continue
        if word.lower in ("that", "this") and i > 0 and (asked := _copula_subject(history[-1].question)):
            # "how do I change that?" after "What is the default expiry of a share link?": the thing that was
            text = text[: word.start] + asked + text[word.end :]
            continue
        if (word.lower in ("that", "this") and i > 0 and _object_position(words, i)
                and (predicate := _predicate(history[-1].question, gerund=True))):
            # "can an admin turn that off?" after "How do I empty the trash?": the clause, not a noun of it
            text = text[: word.start] + predicate + text[word.end :]
            continue
        if word.lower == "there" and words_of(history[-1].question)[0].lower == "where":
            # "what can I change there?" after "Where do I find the workspace settings page?": the place asked for
            topic = _topic(history, plural=None, config=config)
            replacement = f"in {topic}" if topic else ""
        elif (word.lower == "they" or (word.lower in ("them", "their") and _addressed(words, i, config))
              ) and (people := who_answered(history[-1].question, history[-1].answer_sentences, config=config,
                                            cited_texts=history[-1].cited_texts)):
            # "can they change ...?" after "Who can see invoices?": whom the answer names; so are "them" and
            # "their" one gets in touch with ("can I email them?" after "Who reviews refund requests?"), where
            # "download them" after "Who can see invoices?" are still the invoices
            replacement = people + ("'" if word.lower == "their" and people.endswith("s") else
                                    "'s" if word.lower == "their" else "")
        elif word.lower == "there":
            exclude = set(_terms(question, config)) | set(_terms(history[-1].question, config))
            texts = (*history[-1].cited_texts, *history[-1].answer_sentences)
            term = key_term(texts, exclude, config=config)
            replacement = f"in the {term}" if term else ""
        else:
            # "one" is one of several ("restore one" after "versions"), or one more of a kind ("buy one")
            plural = word.lower in (*PLURAL_PRONOUNS, "one") or (False if word.lower in ("it", "its") else None)
            if word.lower == "ones":  # "new ones": the noun itself, bare
                replacement = _bare(_topic(history, plural=True, config=config))
                if not replacement:
                    return None
                text = text[: word.start] + replacement + text[word.end :]
                continue
            if word.lower == "it" and (event := _event(words, i, history[-1], config)):
                text = text[: word.start] + event + text[word.end :]  # "when does it take effect?": downgrading
                continue
            replacement = _topic(history, plural=plural, config=config, verbs=_verbs_around(words, i, config))
            if (word.lower in ("it", "them") and i > 0 and is_content(words[i - 1])
                    and (done_to := _object_in_answer(words[i - 1], history[-1], config))
                    and not set(_terms(done_to, config)) & set(_terms(replacement, config))):
                replacement = done_to  # "who can reset it?" after an answer that says "reset your 2FA"
            if (word.lower in ("it", "they", "them") and replacement
                    and (covering := _covering_subject(words, i, replacement, history[-1], config=config))):
                replacement = covering  # "which standard do they use?": "Security keys use the FIDO2 standard."
            if replacement and word.lower in ("its", "their"):
                replacement += "'" if replacement.endswith("s") else "'s"
            elif replacement and word.lower == "one":  # "restore one": a version
                replacement = _indefinite(replacement)
        if not replacement:
            return None
        text = text[: word.start] + replacement + text[word.end :]
    return text


def _event(words: list[Word], index: int, turn: Turn, config: PipelineConfig) -> str:
    """The previous question's act, asked as "I/we", for an "it" that stands for it: a cited or answer sentence names
    the act with its verb as a noun after a determiner and holds every other content word of the question ("when
    does it take effect?" after "Can I downgrade from Business to Team?", citing "A downgrade from Business to Team
    takes effect ..." -> "a downgrade from Business to Team"); "" otherwise."""
    verb = _predicate(turn.question, gerund=False).partition(" ")[0]
    act = stem_of(words_of(verb)[0], config) if verb else ""
    other = {stem_of(w, config) for k, w in enumerate(words) if k != index and is_content(w)
             and w.lower not in LIGHT_VERBS and w.lower not in _DEGREE} - {""}
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
                    rest = _predicate(turn.question, gerund=False)[len(verb) :]
                    after = words_of(rest)
                    of = " of" if after and after[0].lower not in PREPOSITIONS | {"to"} else ""  # its object
                    return f"{held[k - 1].lower} {w.lower}{of}{rest}"
    return ""


def _demonstrated(words: list[Word], index: int, turn: Turn, config: PipelineConfig) -> str:
    """The phrase a demonstrative "that/this <noun>" points to, as the previous answer wrote it with the words before
    that noun ("the billing contact" for "that contact" after "Invoices are sent by email to the billing contact.");
    "" when the next word is no noun, or the answer writes it with nothing before it."""
    if index + 1 >= len(words):
        return ""
    noun = words[index + 1]
    if (not is_content(noun) or noun.lower in LIGHT_VERBS or noun.lower in _ADVERBS or noun.lower in REFERRING
            or (index + 2 < len(words) and is_content(words[index + 2]))):
        return ""
    stem = stem_of(noun, config)
    written = {stem_of(w, config) for text in turn.answer_sentences for w in words_of(text) if is_content(w)}
    modifiers = modifiers_of(stem, turn.answer_sentences, written - {stem}, config=config) if stem else ""
    return f"the {modifiers} {noun.text}" if modifiers else ""


def _copula_subject(previous: str) -> str:
    """The noun phrase a "what is/are <the ...>?" question asked the value of ("the default expiry of a share link"),
    which a later "that" stands for; "" for any other question."""
    words = words_of(previous)
    if (len(words) < 4 or words[0].lower != "what" or words[1].lower not in ("is", "are")
            or words[2].lower not in ("the", "my", "our", "your")):
        return ""
    return _END.sub("", previous[words[2].start :])


def _covering_subject(words: list[Word], index: int, topic: str, turn: Turn, *, config: PipelineConfig) -> str:
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
    head = set(_terms(topic, config))
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


def _object_in_answer(verb: Word, turn: Turn, config: PipelineConfig) -> str:
    """The one thing the previous answer or its passages do the pronoun's verb to ("reset your *2FA*" for "who can
    reset it?"): the content words after the verb and a determiner, in one sentence, none of them a word of the
    previous question (that is its topic already: "accept the transfer" after "How do I transfer ownership?"); ""
    when they write none or several."""
    stem = stem_of(verb, config)
    asked = set(_terms(turn.question, config))
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
                found.add(sentence[words[start].start : words[end - 1].end])
    return found.pop() if len(found) == 1 else ""


def _elided(quantifier: str, rest: list[Word]) -> bool:
    """Whether "how many/much" lacks its noun: "how many" followed by an auxiliary or a subject ("how many do I
    get?"); "how much", an amount on its own ("how much does annual billing save?"), only when a subject pronoun
    follows its auxiliary ("how much do I get?")."""
    following = rest[0].lower
    if quantifier == "many":
        return following in AUXILIARIES or following in SUBJECTS
    return following in SUBJECTS or (following in AUXILIARIES and len(rest) > 1 and rest[1].lower in SUBJECTS)


def _refer(
    question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig, rules: FollowupRules
) -> tuple[str, str] | None:
    """A referring, elided, conditional or definite-and-thin question rewritten; None for a standalone one."""
    if substituted := _substitute_pronouns(question, words, history, config=config):
        return substituted, "reference: a pronoun replaced by the previous topic"
    for i, word in enumerate(words[1:-2], start=1):
        if (word.lower in ("many", "much") and words[i - 1].lower == "how" and words[i + 1].lower == "of"
                and words[i + 2].lower in _DEMONSTRATIVES and (topic := _introduced(history[-1], config))):
            # "how many of those do I get?" after an answer "sign in with a backup code": backup codes
            return (question[: word.end] + f" {topic}" + question[words[i + 2].end :],
                    "ellipsis: how many of the topic")
    for i, word in enumerate(words[1:-1], start=1):
        if word.lower in ("many", "much") and words[i - 1].lower == "how" and _elided(word.lower, words[i + 1 :]):
            topic = _bare(_topic(history, plural=True if word.lower == "many" else None, config=config))
            if topic:
                return question[: word.end] + f" {topic}" + question[word.end :], "ellipsis: how many of the topic"
    if words[-1].lower in _ELIDING and len(words) > 1 and (is_content(words[-2]) or words[-2].lower in SUBJECTS) \
            and not any(is_content(w) and i not in not_topic(words) for i, w in enumerate(words[:-2])):
        # "can I get more?": more of the topic ("another" and "one more": one of them)
        topic = _topic(history, plural=True, config=config)
        if topic:
            left_out = _bare(topic) if words[-1].lower != "another" else _indefinite(topic).split(" ", 1)[1]
            return question[: words[-1].end] + f" {left_out}" + question[words[-1].end :], "ellipsis: more of the topic"
    terms = question_terms(question, config=config)
    if len(terms) > rules.max_thin_terms:
        return None
    latest = history[-1]
    # The cited passages are whole chunks, read again for every follow-up: their distinct terms are remembered by text.
    mentioned = {t for text in (*latest.cited_texts, *latest.answer_sentences)
                 for t in significant_terms(text, config.tokenizer)}
    for i, word in enumerate(words[:-1]):
        noun = words[i + 1]
        if word.lower in ("the", "each", "every") and is_content(noun) and stem_of(noun, config) in mentioned:
            asked = {stem_of(w, config) for w in words_of(latest.question)} - set(terms) - {""}
            texts = (*latest.answer_sentences, *latest.cited_texts)
            # A noun the previous question used already names what that question was about ("the trial period").
            repeated = stem_of(noun, config) in asked | set(_terms(latest.question, config))
            if not repeated and (modifiers := modifiers_of(stem_of(noun, config), texts, asked, config=config)):
                # "the link" after "How do I reset ...?", where the passages write "password reset links"
                return question[: noun.start] + f"{modifiers} " + question[noun.start :], "reference: a definite noun"
            topic = _bare(_topic(history, plural=None, config=config))
            if topic and not set(_terms(topic, config)) & set(terms):
                return question[: noun.start] + f"{topic} " + question[noun.start :], "reference: a definite noun"
    if _vague_subject(words, latest, config) and (about := _predicate(latest.question, gerund=True, light=True)):
        # "where does the money go?" after "Can I get a refund if ...?": the money of getting that refund
        return f"{_END.sub('', question)} for {about}", "reference: a subject that only the previous turn pins down"
    if _WHAT_IF.match(question):  # after a definite noun's rule: "what if the link has expired?" is the reset link
        topic = cited_title(latest.cited_texts) or _bare(_topic(history, plural=None, config=config))
        return (f"{_END.sub('', question)} with {topic}", "reference: what if, about the topic") if topic else None
    return _topicless(question, words, history, config=config)


def _vague_subject(words: list[Word], latest: Turn, config: PipelineConfig) -> bool:
    """Whether a thin question's subject needs the previous turn to be pinned down: "<wh> do/does the <noun> <verb>"
    or "<wh> do/does <noun>ing <verb>" and nothing else ("where does the money go?", "how long does processing
    take?"), the noun no word of the previous question, answer or passages, nor a name; not a question asked as
    "I/we", one whose subject is a compound ("how long is the free trial?") or whose verb has more after it."""
    start = next((i for i, w in enumerate(words) if w.lower in AUXILIARIES), None)
    lead = next((i for i, w in enumerate(words) if w.lower in QUESTION_WORDS), None)  # after "so", "and", "then"
    if (start is None or lead is None or not lead < start or words[start].lower not in _DO
            or not all(w.lower in _LEADING for w in words[:lead])
            or not all(w.lower in QUESTION_WORDS or w.lower in _DEGREE for w in words[lead:start])):
        return False
    rest = words[start + 1 :]
    if rest and rest[0].lower == "the":
        rest = rest[1:]
    elif not (rest and rest[0].lower.endswith("ing") and len(rest[0].lower) > 5):
        return False
    if len(rest) != 2 or not all(is_content(w) for w in rest) or any(is_name(w, 1) for w in rest):
        return False
    noun = stem_of(rest[0], config)
    texts = (latest.question, *latest.answer_sentences, *latest.cited_texts)
    return bool(noun) and noun not in {t for text in texts for t in _terms(text, config)}


def _topicless(question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig
               ) -> tuple[str, str] | None:
    """A question with no topic of its own, only what it asks for and its verbs ("which standard is used?", "how
    do I resume?", "how many retries?"), given the previous topic: the object a closing verb after "I" lacks, the
    previous verb's ("pause syncing": resume syncing), else "for" the previous question's verb phrase or topic;
    None for a question with a topic."""
    skipped = topic_skips(words)
    content = [i for i, w in enumerate(words) if is_content(w) and w.lower not in LIGHT_VERBS]
    if not content or any(i not in skipped for i in content) or any(is_name(w, i) for i, w in enumerate(words)):
        return None
    text = _END.sub("", question)
    if any(w.lower in SUBJECTS for w in words[:-2]):
        return None  # "how do I sign in?": a verb and its particle, complete
    if len(words) > 1 and words[-2].lower in SUBJECTS:  # "how do I resume?": the previous verb's object
        thing = _predicate(history[-1].question, gerund=False).partition(" ")[2] or _topic(
            history, plural=None, config=config)
        return (f"{text} {thing}", "ellipsis: the object of a closing verb") if thing else None
    about = _predicate(history[-1].question, gerund=True) or _topic(history, plural=None, config=config)
    return (f"{text} for {about}", "ellipsis: a question with no topic of its own") if about else None
