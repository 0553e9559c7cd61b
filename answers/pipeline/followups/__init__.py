"""Follow-up questions (§6a): an elliptical or referring question rewritten into a standalone one before retrieval.

The package: resolve.py (the entry point, which rule a question is for), fragments.py (elliptical phrases),
thin.py (referring, elided, definite-and-thin and situated questions), pronouns.py with antecedents.py,
referents.py and topic_phrase.py (what a pronoun stands for), verb_phrases.py, words.py and turns.py.

`resolve_question(question, history, config=...)` works offline from the previous turns' questions, answers and
cited passages (fix/followups15's corpus lookup, material.py, changed no row and was removed by fix/followups16). The
rule, word by word and without part-of-speech tagging:

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
one content word) and whose words one sentence of that passage mostly holds, gets the passage's heading path after
it (continuation.py: "Who can pick a different date, about link expiry in share links?").

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

Since the ninth held-out part joined dev: a possessive right after its clause's verb ("its", "their") names that
clause's subject when it is a noun of its number ("Where does the desktop app keep its synced folder?" is left as
asked; "how do I change its expiry?" still refers); "it" or "that" as the subject of what only happens to an act
("does it happen right away?", "how soon does it take effect?", "when would that kick in?", "how much does it save?")
is the act the previous question asked as "I/we", named as a cited sentence names it or as a gerund ("upgrading
from Team to Business ..."); a modal with a subject and no verb ("who can?", "can workspace admins?", "a guest, can
one?") is "<modal> <subject> do that", which takes the previous verb phrase ("Can workspace admins restore files
someone else deleted?"); the subject is one or two content words, the last plural unless a determiner opens it, so
"Can guests comment?" keeps its verb; a closing "instead" marks a case as "too" does ("with the desktop sync client
instead?"); "and when/if <clause>?" whose subject is not I/we, with no comma, takes the place of the previous
question's clause opening with the same word ("and when its storage quota is full?" after "What happens to a
workspace when the trial ends?"); "it/that" after "about" is the previous situation, the act asked as "I/we" as a
gerund ("who do I talk to about extending my free trial?") or a passive question's clause from its subject on ("who
gets told about an account locked?", "warned about old versions removed when a workspace downgrades to Team").
"each/every one" before a word is each of the topic, not a count ("is each one single use?" -> "Is each password
reset link single use?").

Since the tenth held-out part joined dev, a pronoun's topic is chosen by what the rest of its question says of it
(topic_phrase.py): a phrase whose head noun a passage or answer sentence of the last turns (not a title or heading)
writes together with at least half of the question's other content words (two or more, or the only one) ranks up by
the share held ("does it have a dark theme?" after "How do I set the accent colour of the embed widget?": "The widget
supports light and dark themes", so the widget, not the accent colour); a phrase whose head the question writes itself
ranks down ("how long do they take?" is not about "requests"); and "they/them/their" may take a noun named in the
singular with at most two modifiers, put in the plural, when the texts write that plural as a noun, not as a verb
before a determiner ("who posts them?" after a welcome kit: "Kits are posted by our print partner" -> "welcome kits";
"This guide helps a team" gives no "helps").
A participle in an earlier clause is no antecedent of a pronoun ("once picked, can it be changed?" refers).
A subject "that" right after an auxiliary, standing alone (nothing after it, or a verb followed by an article or by
nothing, not a light verb), is what the previous question asked about doing, as a gerund, or the state a passive
question asked about ("does that delete the newer ones?" -> "Does restoring an older version of a file delete ...?";
"how long does that last?" -> "How long does my account locked after five failed sign-in attempts last?"); "does that
page also list ...?" is a demonstrative before its noun, and "how long does that take?" keeps the topic.
"there" after a "where" question is the place the first answer sentence names that the question does not: a place
preposition and its words up to the next preposition ("what else can I configure there?" after "Where do I create
personal access tokens?", answered "... created on the Developer page in Account settings." -> "on the Developer
page"); with no such place, "in <topic>" as before. After another question, "there" is the last place phrase that
question wrote, a place preposition with a determiner ("do admin restrictions apply there too?" after "How do I
create a share link from my phone?" -> "from my phone"; not "at any time"), before the passages' key term.
A subject "they" after a question asked as "I/we" is the one plural noun the answer or its passages make of that
question's verb, by its root and a noun ending ("-tions", "-ments", "-als", ...): "how long do they stay valid?" after
"How do I invite people to my workspace?", whose passage says "Invitations expire after 48 hours." -> "invitations".

Since the eleventh held-out part joined dev, five rules by cause (2026-12-07, fix/followups12). A verb is no part of
a topic where word order shows it (topics.py): the word right after "<noun> can/will ..." ("which plans can *use*
SAML single sign-on?"), the word after "can/do <bare plural>" that is not itself plural, participle or light ("can
admins *restore* files ...?", not "do share links expire?"), no word before an article after an opening "is/are"
("Are hardware security keys a Business-only feature?"), and no run before a closing "do/have/mean" ("what does the
embed widget do?"); a subject "they" right after a modal is the previous question's own bare plural subject ("can
they do that for just one folder?" after "Can admins block share links ...?" -> "Can admins block share links ...").
The situation a "what happens when/if ...?" question described is named by its answer ("A conflict happens when two
people change the same file ...") and that name is the first topic ("whose name goes on it?" -> "... on a
conflict?"); "one" before a participle closing its clause is a pronoun ("what is the extra one called?"), and after a
determiner and a modifier it takes the topic bare ("the extra conflict"). A verbless phrase of three terms is a
fragment when its head parallels the previous question's, when the previous answer or its passages write its head
("free trial workspaces?" after a passage naming them), or when the previous question went unanswered; a closing ",
then" marks a fragment ("storage, then?", "password reset links, then?"); a preposition and a question word go in
front of an auxiliary-first previous question ("from where?" -> "From where can an expired invitation be sent
again?"). A "that" right before a preposition is no relative pronoun, no clause opening with "on" or "for": it is an
object and stands for the previous act ("can admins force that on everyone?" after "Can I lock the mobile app with
Face ID?" -> "... force locking the mobile app with Face ID on everyone?"). "those/these <noun>" is that noun as
the previous turn's passages name it with words of the previous question before it, its verb after "I" left out
("what happens to those files ...?" after "How do I mark a file as available offline?", citing "Offline files can be
opened ..." -> "the offline files"). The noun a "which X" question asked for takes the name its answer gives it with
"called/named" ("can I rename it?" after "Which folder do camera uploads go to?", answered "... a folder called Camera
Uploads ..." -> "the Camera Uploads folder").

Since the twelfth held-out part joined dev (2026-12-07, fix/followups13): its one changed standalone question, "Can
I preview an old version without restoring it?" after "Can I see who changed a file?", came from two causes. "without"
opens a clause of its own, finite or not, so a pronoun after it may name a noun of the clause before it (the old
version: the question is left as asked); and the word right after a subject "who" is its verb, never a topic
("see who *changed* a file", "who *approves* refunds"), as the word after "who <modal>" already was ("can I undo
it?" there is "Can I undo a file?", not "... undo changed?").
Then rules by cause for the dev misses: a question closing with "before/after that" (and no pronoun pointing out of
it) is about the time of the previous situation, put in place of "that": the previous act as a gerund, its
"if/when/once" clause or its passive clause ("is there any way back after that?" after "How do I empty the trash?" ->
"... after emptying the trash"; "do we get warned before that?" -> "... before our storage quota is full"); a
modifier's "one" with no preposition to anchor it stands for the noun the previous question gives a modifier of its own
("the current one?" after "Do older versions count ...?" -> "current version"), and an ordinal's or modifier's "one" is
the noun the previous passages write right after that modifier ("what is the second one called?" after "The second
copy has ..." -> "the second copy"); "it" as what the passage does the pronoun's verb to, when the passage writes "the
<noun>" (a thing it named before), is that noun of the topic ("who approves it?" after "... the billing team approves
the request" -> "the refund request").
"below", "above", "toward(s)", "into" and "between" are prepositions, so "below 99%?" is a fragment whose number
stands for the previous question's ("... drops below 99%?"); "one" right after a modal, before a verb with no noun
after it, is a pronoun subject ("what can one replace at sign-in?"; "does one extra storage block cost" keeps its
number); a superlative after "the" with no noun after it takes the head of the previous I/we question's object, else
the topic ("what's the longest I can pick?" after "How do I set a custom expiry ...?" -> "the longest expiry");
"that" after a "what's the X?" question is the X, as after "what is the X?" ("more people than the member limit on
the Team plan"); a passive's agent may stand after an adverb in -ly ("quoted individually by the Lumora Labs sales
team"), so "can they do custom contracts?" after "Who quotes Enterprise plans?" is about that team (answered.py).
A phrase holding a code literal ("rate_limited", "files.read") counts as written out whatever order the passages put
its words in ("an error code named rate_limited"), so "the rate_limited error code" outranks "error code" (topics.py).

fix/followups14 (no part moved; the thirteenth stays held out) made rules by family, not by row: a compound the
passages write as "<head> of <modifiers>" counts as written out ("the share link report"); the subject of a relative
clause without "that" describes the noun before it ("the longest expiry a share link can have": the expiry, and
"expiry" is no verb); a participle before a noun phrase the passages write is its adjective ("an expired share
link"); verbs word order gives away ("the trial *runs* out", "a card payment *keeps* failing", "does Lumora *store*")
and the object after "what happens to" ("happen" takes no infinitive) are read as such; a pronoun a verb acts on is
no thing the passages only write doing that verb ("someone answers it" is the ticket, not "support answers"); a
pronoun that acts itself is no fronted object ("does it cover ...?" after "What uptime does the SLA promise?": the
SLA); a closing "any/some" is the plural noun phrase the previous answer puts after the same verb ("don't have any"
after "If you have no backup codes"); and a question of more than four terms goes on from the previous passage when
one sentence writes two thirds of them (continuation.py). Each fixed the rows it was made from and, but for the verbs
word order gives away, no other: rules made without the twelfth part's rows left it at 62/70.

Since the thirteenth held-out part joined dev (2026-12-07, fix/followups16): its one changed standalone question, "Is
an annual plan cancelled in its first month fully refunded?", named the possessive's antecedent itself. A possessive,
unlike "it", may name its own clause's subject, so a question that names that subject (of the possessive's number)
between its auxiliary and the participle of its passive or perfect holds the antecedent and is left as asked, the
possessive anywhere after the participle (antecedents.py), as one right after its verb already was.
Then, by construction: a modifier's "one(s)" stands for a noun, never an adverb closing the previous run ("the
Frankfurt ones?" after "Which team takes Oregon incidents first?") nor the verb closing a do-support question where
word order gives it away ("and the backup ones?" after "Do the codes expire?"); a phrase opening with a preposition
and holding no verb is a fragment whatever its length ("by local bank transfer in India?"); a noun phrase with a
phrase after its head and no verb ("the engineering manager on duty?", "problems with our own network?") takes the
place of the previous run with the same head or is added to the previous question; a question that is only an
adverbial clause ("once we've upgraded to Business?", "when the password changes?") is added to the previous question
or takes the place of its clause with the same opener, unless it asks a question of its own ("if I cancel can I get a
refund?").
"it/that" right after an auxiliary, the subject of a verb whose object is the speaker ("does it sign me out?",
"will that log me out on my phone?"), is the act the previous question asked about doing as I/we ("changing my
password"), not the thing it was done to (referents.acts_on_speaker).
A pronoun or question word contracted with its verb ("it's", "they're", "what's") is read written out ("while it is
off"; the rewrite keeps the contraction as asked), and a plural is no antecedent of "it" ("what happens to my edits
while it's off?" refers: the desktop sync). "What's the trash?" and "Where's the Billing page?" ask on their own: read
as one content word, "what's" had made them noun phrases of a fragment, rewritten after any question.

Known misses (the measured shares are in the README's evaluation section): a thin question about a definite thing
the previous answer did not name after a question not asked as I/we ("where does the money go?" after "How long do
refunds take?") is left alone (a rule taking "for" the topic rewrote standalone golden questions: "What is the uptime
SLA?"), while one asked right after an I/we question is taken for a follow-up even when it is standalone ("When does
the trial end?" after "How do I request a refund?"); a subject "they" that
means the previous question's subject takes the topic unless that subject is a bare plural right after a modal
("can they do that?" after "can the admins of a workspace ...?"); a thin question
with a topic of its own that is still a follow-up ("how long does processing take?", "what does the second copy get
called?") is taken for a standalone one when the previous passages do not write it, while a standalone question that
only *looks* thin can be taken for a follow-up; a word the passages use but no question does ("conflicted copy") is
never the topic unless it is what they do the pronoun's verb to, the name of the situation asked about, or the noun
they write after a "one"'s modifier ("the second one" -> "the second copy"); "it" for a thing with "of" takes the
thing or what it is of, not both ("a report of all active share links" -> "an active share link"); an
imperative fragment with no conjunction ("list them") is not detected; the rewrite is not always grammatical English
("turn emptying the trash off"; verb agreement is not fixed): it is a search question.
"""

from answers.pipeline.followups.resolve import resolve_question
from answers.pipeline.followups.turns import RULES, FollowupRules, Resolution, Turn

__all__ = ["RULES", "FollowupRules", "Resolution", "Turn", "resolve_question"]
