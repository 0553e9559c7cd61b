"""Each pronoun that points outside the question replaced by what it stands for."""
import re
from collections.abc import Sequence

from answers.pipeline.answered import who_answered
from answers.pipeline.config import PipelineConfig
from answers.pipeline.followups.antecedents import pointing_pronouns
from answers.pipeline.followups.referents import (
    acts_on_speaker,
    copula_subject,
    covering_subject,
    demonstrated,
    made_by_act,
    named_event,
    noun_after_modifier,
    object_in_answer,
    passive_clause,
    place_answered,
    place_asked,
    stands_for_act,
)
from answers.pipeline.followups.topic_phrase import best_topic, indefinite, is_addressed, rest_of, verbs_around
from answers.pipeline.followups.turns import Turn
from answers.pipeline.followups.verb_phrases import (
    adverbs_only,
    has_own_subject,
    in_object_position,
    verb_phrase,
    verb_phrase_after_subject,
)
from answers.pipeline.followups.words import PLURAL_PRONOUNS, PRO_VERBS, bare_phrase, terms_of
from answers.pipeline.topics import (
    AUXILIARIES,
    DETERMINERS,
    LIGHT_VERBS,
    MODALS,
    SUBJECTS,
    Word,
    is_content,
    is_participle,
    key_term,
    modal_subject,
    modifiers_of,
    stem_of,
    words_of,
)

_POSSESSIVES = {"mine": "my", "yours": "your", "theirs": "their", "ours": "our"}


def substitute_pronouns(
    question: str, words: list[Word], history: Sequence[Turn], *, config: PipelineConfig
) -> str | None:
    """The question with each pronoun that points outside it replaced by the topic, or with none, each "those/these
    <noun>" named as the passages name it; None when nothing points outside it."""
    pointing = pointing_pronouns(words, question)
    if not pointing:
        return _demonstrated_things(question, words, history[-1], config) if history else None
    text = question
    for i in reversed(pointing):
        word = words[i]
        if word.lower in _POSSESSIVES:  # "see theirs": their storage usage
            topic = bare_phrase(best_topic(history, plural=None, config=config))
            if not topic:
                return None
            text = text[: word.start] + f"{_POSSESSIVES[word.lower]} {topic}" + text[word.end :]
            continue
        if (word.lower in ("it", "that", "this") and i > 0 and words[i - 1].lower in PRO_VERBS
                and adverbs_only(words[i + 1 :])  # "do that (too)", "do that for a folder", not "does that take"
                and (predicate := verb_phrase(history[-1].question, gerund=words[i - 1].lower == "doing")
                     or ((has_own_subject(words, i - 1) or _subject_they(words, i - 1, history[-1]))
                         and verb_phrase_after_subject(history[-1].question)))):
            # "who can do this?" after "Can I restore a deleted file?": who can restore a deleted file
            text = text[: words[i - 1].start] + predicate + text[word.end :]
            continue
        if (word.lower in ("it", "that") and i > 0 and words[i - 1].lower == "about"
                and (situation := verb_phrase(history[-1].question, gerund=True)
                     or passive_clause(history[-1].question))):
            # "who gets told about it?" after "After how many failed attempts is an account locked?": the situation
            text = text[: word.start] + situation + text[word.end :]
            continue
        if (word.lower in ("it", "that") and (stands_for_act(words, i) or acts_on_speaker(words, i))
                and (act := named_event(words, i, history[-1], config)
                     or verb_phrase(history[-1].question, gerund=True))):
            # "does it happen right away?" after "Can I upgrade from Team to Business ...?": the act, not a thing
            text = text[: word.start] + act + text[word.end :]
            continue
        if (word.lower == "that" and i > 0 and words[i - 1].lower in AUXILIARIES and _no_determiner(words, i)
                and (act := verb_phrase(history[-1].question, gerund=True) or passive_clause(history[-1].question))):
            # "does that delete the newer ones?" after "Can I restore an older version of a file?": the subject
            # "that" is what the previous question asked about doing, or the state it asked about
            text = text[: word.start] + act + text[word.end :]
            continue
        if word.lower in ("that", "this") and (named := demonstrated(words, i, history[-1], config)):
            # "can I change that contact?" after an answer naming "the billing contact": the thing as it was named
            text = text[: word.start] + named + text[words[i + 1].end :]
            continue
        if word.lower in ("that", "this") and i > 0 and (asked := copula_subject(history[-1].question)):
            # "how do I change that?" after "What is the default expiry of a share link?": the thing that was
            text = text[: word.start] + asked + text[word.end :]
            continue
        if (word.lower in ("that", "this") and i > 0 and in_object_position(words, i)
                and (predicate := verb_phrase(history[-1].question, gerund=True))):
            # "can an admin turn that off?" after "How do I empty the trash?": the clause, not a noun of it
            text = text[: word.start] + predicate + text[word.end :]
            continue
        if word.lower == "there" and words_of(history[-1].question)[0].lower == "where":
            # "what can I change there?" after "Where do I find the workspace settings page?": the place asked for
            topic = best_topic(history, plural=None, config=config)
            replacement = (place_answered(history[-1], config) or f"in {topic}") if topic else ""
        elif (word.lower == "they" or (word.lower in ("them", "their") and is_addressed(words, i, config))
              ) and (people := who_answered(history[-1].question, history[-1].answer_sentences, config=config,
                                            cited_texts=history[-1].cited_texts)):
            # "can they change ...?" after "Who can see invoices?": whom the answer names; so are "them" and
            # "their" one gets in touch with ("can I email them?" after "Who reviews refund requests?"), where
            # "download them" after "Who can see invoices?" are still the invoices
            replacement = people + ("'" if word.lower == "their" and people.endswith("s") else
                                    "'s" if word.lower == "their" else "")
        elif word.lower == "there":
            exclude = set(terms_of(question, config)) | set(terms_of(history[-1].question, config))
            texts = (*history[-1].cited_texts, *history[-1].answer_sentences)
            term = key_term(texts, exclude, config=config)
            replacement = place_asked(history[-1].question) or (f"in the {term}" if term else "")
        else:
            # "one" is one of several ("restore one" after "versions"), or one more of a kind ("buy one")
            plural = word.lower in (*PLURAL_PRONOUNS, "one") or (False if word.lower in ("it", "its") else None)
            # "the second one": a noun's place after a determiner and its modifier, of either number
            modified = word.lower == "one" and i > 1 and words[i - 2].lower in DETERMINERS and is_content(words[i - 1])
            if modified:
                plural = None
                if named := noun_after_modifier(words[i - 1], history[-1]):
                    # "what is the second one called?" after "The second copy has ...": the noun the passages write
                    text = text[: word.start] + named + text[word.end :]
                    continue
            if word.lower == "ones":  # "new ones": the noun itself, bare
                replacement = bare_phrase(best_topic(history, plural=True, config=config))
                if not replacement:
                    return None
                text = text[: word.start] + replacement + text[word.end :]
                continue
            if (word.lower == "they" and i > 0 and words[i - 1].lower in MODALS
                    and (subject := modal_subject(history[-1].question))):
                text = text[: word.start] + subject + text[word.end :]  # "can they ...?" after "can admins ...?"
                continue
            if word.lower == "they" and (made := made_by_act(history[-1])):
                text = text[: word.start] + made + text[word.end :]  # "how long do they stay valid?": invitations
                continue
            if word.lower == "it" and (event := named_event(words, i, history[-1], config)):
                text = text[: word.start] + event + text[word.end :]  # "when does it take effect?": downgrading
                continue
            replacement = best_topic(history, plural=plural, config=config, verbs=verbs_around(words, i, config),
                                     rest=rest_of(words, i, config), pluralize=word.lower in PLURAL_PRONOUNS,
                                     acted_on=i > 0 and is_content(words[i - 1]),
                                     acts_itself=_acting_subject(words, i))
            if (word.lower in ("it", "them") and i > 0 and is_content(words[i - 1])
                    and (done_to := object_in_answer(words[i - 1], history[-1], config))
                    and not set(terms_of(done_to, config)) & set(terms_of(replacement, config))):
                replacement = done_to  # "who can reset it?" after an answer that says "reset your 2FA"
                if (done_to.startswith("the ")
                        and (topic := bare_phrase(best_topic(history, plural=None, config=config)))
                        and not set(terms_of(done_to, config)) & set(terms_of(topic, config))):
                    # "who approves it?" after a passage saying "the billing team approves the request": "the
                    # request" names a thing of the topic, the refund request
                    replacement = f"the {topic} {done_to[4:]}"
            if (word.lower in ("it", "they", "them") and replacement
                    and (covering := covering_subject(words, i, replacement, history[-1], config=config))):
                replacement = covering  # "which standard do they use?": "Security keys use the FIDO2 standard."
            if replacement and word.lower in ("its", "their"):
                replacement += "'" if replacement.endswith("s") else "'s"
            elif replacement and word.lower == "one":  # "restore one": a version; "each one": each reset link
                replacement = bare_phrase(replacement) if modified else indefinite(replacement)
                if i > 0 and words[i - 1].lower in ("each", "every"):
                    replacement = replacement.partition(" ")[2]
        if not replacement:
            return None
        text = text[: word.start] + replacement + text[word.end :]
    return text


def _demonstrated_things(question: str, words: list[Word], previous: Turn, config: PipelineConfig) -> str | None:
    """The question with each "those/these <noun>" put as the previous turn's passages name that noun with words of
    the previous question before it ("what happens to those files ...?" after "How do I mark a file as
    available offline?", citing "Offline files can be opened ..." -> "the offline files"); None when there is none."""
    asked = words_of(previous.question)
    # the previous question's words, but not its verb after "I/we" or a modal ("mark" of "How do I mark a file ...?")
    allowed = {stem_of(w, config) for k, w in enumerate(asked)
               if is_content(w) and not (k > 0 and (asked[k - 1].lower in SUBJECTS or asked[k - 1].lower in MODALS))}
    # sentence by sentence: a run of words must not cross "... available offline. Offline files ..."
    sentences = [sentence for passage in (*previous.answer_sentences, *previous.cited_texts)
                 for sentence in re.split(r"(?<=[.!?])\s+|\n", passage)]
    text, found = question, False
    for i in reversed(range(len(words) - 1)):
        noun = words[i + 1]
        if (words[i].lower not in ("those", "these") or not is_content(noun)
                or (i + 2 < len(words) and is_content(words[i + 2]))):
            continue
        stem = stem_of(noun, config)
        modifiers = modifiers_of(stem, sentences, allowed - {stem}, config=config) if stem else ""
        if modifiers and not {stem_of(w, config) for w in words_of(modifiers)} & {stem_of(w, config) for w in words}:
            text, found = text[: words[i].start] + f"the {modifiers} {noun.text}" + text[noun.end :], True
    return text if found else None


def _acting_subject(words: list[Word], index: int) -> bool:
    """Whether the pronoun is the subject of a verb of its own after an auxiliary: "does it *cover* beta features?"
    (not "is it free?", "does it take long?")."""
    return (0 < index < len(words) - 1 and words[index - 1].lower in AUXILIARIES
            and words[index - 1].lower not in ("is", "are", "was", "were") and is_content(words[index + 1])
            and words[index + 1].lower not in LIGHT_VERBS and not is_participle(words[index + 1]))


def _subject_they(words: list[Word], verb: int, previous: Turn) -> bool:
    """Whether the subject of the verb at `verb` is "they" after a modal, standing for the previous question's own
    bare plural subject ("can they do that ...?" after "Can admins block share links ...?")."""
    return (verb > 1 and words[verb - 1].lower == "they" and words[verb - 2].lower in MODALS
            and modal_subject(previous.question) is not None)


def _no_determiner(words: list[Word], index: int) -> bool:
    """Whether "that" stands alone, not before its noun: no content word follows it, or the one that does is a verb,
    with an article or nothing after it ("does that *delete* the newer ones?", "how long does that *last*?"; not
    "does that *page* also list ...?"), and not a light one."""
    following = words[index + 1 : index + 3]
    if following and following[0].lower in LIGHT_VERBS:
        return False  # "how long does that take?": a light verb says nothing of an act (stands_for_act, the topic)
    return (not following or not is_content(following[0]) or len(following) == 1
            or following[1].lower in DETERMINERS)
