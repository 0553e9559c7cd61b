"""What a question asks: the terms an answering sentence must cover, the type of answer it wants, and whether a
sentence holds that type."""
import enum
import functools
import re
from collections.abc import Sequence

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.quantities import find_quantities, numbers_in
from answers.pipeline.text.tokens import TokenizerConfig, significant_terms, tokenize

# Words that only say what kind of answer is wanted ("how long", "how many") carry no content to match.
ASKS_QUANTITY = re.compile(
    r"\b(how\s+(?:many|long|much|often|frequently|soon|fast|large|big|quickly)|when|what\s+time|(?:which|what)\s+year|"
    r"cut-?off\s+time|time\s+of\s+(?:the\s+)?day|(?:what|which)\s+(?:range(?:\s+of\s+values)?|values))\b",
    re.I,
)
# Light verbs of a question ("how long does it take") say nothing a sentence must repeat.
_QUESTION_FILLER = re.compile(
    r"(?<![\w.])(take|takes|taking|took|get|gets|tell|know|happen|happens|mean|means|difference|differences|use|uses|"
    r"used)(?![\w(]|\.\w)",
    re.I,
)
# ... nor do these, for the reader ("how do I make ...", "keep only the last N", "find the most frequent", "a version
# that works without"); the follow-up resolver still counts them, so a short question stays whole.
_ANSWER_FILLER = re.compile(
    r"(?<![\w.])(make|makes|made|making|keep|keeps|keeping|give|gives|find|want|need|work|works)(?![\w(]|\.\w)", re.I
)
# An identifier the question names ("requests.get", "shared_buffers", "open()"): what it asks about.
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*(?![\w]|\.\d)")
_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*(?:[._][A-Za-z0-9_]\w*)+(?:\(\))?|\b[A-Za-z_]\w*\(\)")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# A day of a month written with the month's name ("Dec 17", "17 December", "December 17, 2024"): a date, not a count.
# After a number "may" is the verb far more often than the month ("17 may be set"), so it is left out there.
_DAY_OF_MONTH = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?!may\b){_MONTH}(?![a-z])",
    re.I,
)
# An acronym: two or more capitals, maybe with digits ("HTTPS", "TCP", "RAID0"); not a word in capitals at the start.
_ACRONYM = re.compile(r"(?<![\w.\-])[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*(?![\w\-])")
# A variant of an acronym shares at least its first three letters ("HTTP" and "HTTPS"; "API" and "APT" do not).
_VARIANT_LETTERS = 3
_JOINED_NAME = re.compile(r"(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w])")
# Nouns that ask for an amount: "what discount", "what is the price".
_ASKS_AMOUNT = re.compile(r"\b(discount|price|prices|cost|costs|fee|fees|percentage|quota|timeout|uptime)\b", re.I)
ASKS_SEVERAL = re.compile(r"\b(and|both|each|all|list|compare|difference|differences|versus|vs)\b|,", re.I)


class QuestionType(enum.Enum):
    """The kind of answer a question asks for."""

    DURATION = "duration"
    TIME = "time"
    DATE = "date"
    QUANTITY = "quantity"
    NAME = "name"
    YES_NO = "yes/no"
    PROCEDURE = "procedure"
    DEFINITION = "definition"
    REASON = "reason"
    OTHER = "other"


# Checked in this order: the first that matches names the type ("how long" before "how", "what time" before "what").
_TIME_VERBS = r"(?:take|takes|last|lasts|kept|keep|keeps|valid|expire|expires|stay|stays|wait|until|retain|retained|" \
    r"stored|remain|remains|period|run|runs|open|available|before|after)"
_TYPE_RULES: tuple[tuple[QuestionType, re.Pattern[str]], ...] = (
    (QuestionType.DURATION, re.compile(
        r"\bhow\s+(?:often|frequently|soon|quickly)\b|\b(?:for|after|within|in)\s+how\s+long\b|"
        rf"\bhow\s+long\b.*\b{_TIME_VERBS}\b|"
        r"\bhow\s+many\s+(?:seconds|minutes|hours|days|weeks|months|years|business\s+days)\b|"
        r"\b(?:retention|validity)\s+period\b|\blifetime\b", re.I)),
    (QuestionType.TIME, re.compile(r"\b(?:what|which)\s+time\b|\bcut-?off\s+time\b|\bat\s+what\s+hour\b", re.I)),
    (QuestionType.DATE, re.compile(r"\b(?:what|which)\s+(?:year|date)\b|\bwhen\s+(?:was|were|did)\b", re.I)),
    (QuestionType.QUANTITY, re.compile(
        r"\bhow\s+(?:many|much|large|big|fast|long)\b|\b(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:the\s+)?(?:"
        r"number|port|version|biggest|largest|smallest|longest|shortest|highest|lowest|most|least|maximum|minimum|"
        r"max|min)\b|\b(?:what|which)\s+(?:range|values)\b", re.I)),
    (QuestionType.PROCEDURE, re.compile(
        r"^\s*how\s+(?:do|can|should|would)\s+(?:i|we|you|one)\b|^\s*how\s+to\b|\bsteps\s+to\b|^\s*what\s+steps\b",
        re.I)),
    # A noun naming an amount asks for one, unless the question asks how to do something ("How do I change a user's
    # disk quota?" wants the command, not a number).
    (QuestionType.QUANTITY, _ASKS_AMOUNT),
    (QuestionType.REASON, re.compile(r"^\s*why\b|\bwhat\s+is\s+the\s+reason\b", re.I)),
    (QuestionType.NAME, re.compile(
        r"^\s*(?:who|whom|whose)\b|^\s*(?:which|what)\s+(?:\w+\s+)?(?:command|function|module|method|class|option|"
        r"setting|variable|parameter|file|package|tool|program|team|company|status\s+code|code|error|header|"
        r"format|protocol|address|url|name|cities|city|countries|country)\b|\bwhere\b", re.I)),
    (QuestionType.DEFINITION, re.compile(
        r"^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[\w\-.]+(?:\s+[\w\-.]+){0,3}\s*\??\s*$|"
        r"^\s*what\s+does\s+.+\s+(?:mean|do)\s*\??\s*$|^\s*define\b|\bmeaning\s+of\b", re.I)),
    (QuestionType.YES_NO, re.compile(
        r"^\s*(?:can|could|is|are|does|do|did|will|would|should|may|must|has|have|was|were)\b", re.I)),
)
# Everyday phrases asked in other words than manuals use: the reader matches the manual's word.
_PARAPHRASES = (
    (re.compile(r"\b(?:my|the|our|your)?\s*money\s+back\b", re.I), " refund "),
    (re.compile(r"\b(?:back(?:s|ed|ing)?\s+up|back-ups?)\b", re.I), " backup "),
    # ... not the name of a method ("FTP.login")
    (re.compile(r"(?<![\w.])log(?:s|ged|ging)?\s*(?:in|on)\b", re.I), " sign in "),
    # A default asked in other words: "when none is given", "unless configured otherwise", "if omitted".
    (re.compile(
        r"\b(?:when|if|where)\s+(?:none|nothing|no\s+\w+|it|they|one)\s+(?:is|are)\s+(?:given|specified|set|passed|"
        r"provided|supplied)\b|\bunless\s+(?:it\s+is\s+|you\s+)?(?:configured|specified|set|told|changed)\s+otherwise\b|"
        r"\b(?:when|if)\s+(?:not\s+(?:given|specified|set|passed)|omitted|left\s+out)\b|"
        # ... after the name of what is left out ("when number is not given"), or said of the asker ("if I do not
        # give one")
        r"\b(?:is|are)\s+not\s+(?:given|specified|passed|provided|supplied)\b|"
        r"\b(?:i|you|we)\s+(?:do\s+not|don't|did\s+not|didn't)\s+(?:give|pass|specify|provide|supply)\s+"
        r"(?:one|it|any|them|an?\s+\w+)\b|"
        r"\bdefault\s+(?:value|setting)s?\b", re.I), " default "),
)

_CLOCK = re.compile(
    r"(?<![\w:.])\d{1,2}(?::\d{2})?\s?[ap]\.?m\b|(?<![\w:.])\d{1,2}:\d{2}\b|\b(?:midnight|noon)\b", re.I
)
_DATE_WORD = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(?:1[89]|20)\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)\b|\b(?:each|every)\s+(?:day|week|month|year)\b",
    re.I,
)
_TIME_UNITS = frozenset(
    "second minute hour day week month year business day business hour millisecond".split()  # noqa: SIM905
)
_DURATION_WORD = re.compile(
    r"\b(?:hourly|daily|weekly|monthly|yearly|annually|nightly|every\s+(?:hour|day|week|month|year|night|minute)|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|a|an)\s+(?:business\s+|working\s+|calendar\s+)?"
    r"(?:second|minute|hour|day|week|month|year)s?|"
    r"immediately|instantly|forever|indefinitely|never\s+expire)\b",
    re.I,
)
_DURATION_UNIT = re.compile(
    r"\d\s*-?\s*(?:business\s+|working\s+|calendar\s+)?(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b"
    r"|\bin\s+seconds\b",
    re.I,
)
# A number word that counts ("two replicas", "no limit", "unlimited"); a bare "no" denies, it counts nothing.
_QUANTITY_WORD = re.compile(
    r"\b(?:unlimited|one|two|three|four|five|six|seven|eight|nine|ten|twelve|dozens?|hundreds?|thousands?)\b|"
    r"\bno\s+(?:(?:upper|lower|fixed|hard|built-in)\s+)?(?:limit|limits|maximum|minimum|more|fewer|less|cap)\b",
    re.I,
)
# Number words that count nothing: "one or more", "one of the", "one another", "no one", "each one", "a dozen ways".
_NUMBER_IDIOM = re.compile(
    r"\bone\s+(?:or\s+more|or\s+several|of|another|by\s+one)\b|"
    r"\b(?:no|any|every|each|some|the|this|that|which|another|someone|anyone)\s+one\b|"
    r"\b(?:a|one)\s+(?:couple|dozen)\s+of\s+(?:ways|things|reasons|times|places|examples|options)\b",
    re.I,
)
# A question asking for a bound, and the words that state one (in the text or in a name: "max_connections").
_ASKS_BOUND = re.compile(
    r"\b(?:at\s+(?:most|least)|maxim(?:um|al|ally)|minim(?:um|al|ally)|max|min|limits?|upper\s+bound|"
    r"lower\s+bound|at\s+(?:the\s+same\s+time|once)|simultaneously|concurrently|"
    r"largest|smallest|biggest|highest|lowest|range)\b",
    re.I,
)
_STATES_BOUND = re.compile(
    r"(?<![a-z])(?:max|min)(?![a-z])|\b(?:at\s+(?:most|least)|maxim\w*|minim\w*|limit\w*|up\s+to|"
    r"(?:no|not)\s+(?:more|fewer|less|longer|larger)\s+than|exceed\w*|capped|ceiling|unlimited|bound(?:ed)?|"
    r"or\s+(?:more|fewer|less|longer|shorter|larger|smaller)|as\s+(?:many|much|long|large)\s+as|"
    r"(?:longer|larger|greater|bigger|more)\s+than|truncated|restricted\s+to|only|"
    r"largest|smallest|biggest|highest|lowest|range|below|above)\b|"
    # the ends of a range: "0 to 59", "-32768 to +32767", "1 <= month <= 12"
    r"\d\s*(?:to|through)\s*[-+]?\d|<=|>=|≤|≥",
    re.I,
)
_PROCEDURAL = re.compile(
    r"^(?:click|tap|select|choose|open|go|enter|type|press|run|use|set|add|remove|follow|visit|navigate|install|"
    r"create|sign|turn|pick|drag|copy|paste|call|pass|edit|start|stop|restart|contact|ask|send|write|make)\b|"
    r"\b(?:can|may)\s+be\s+\w+ed\b.*\b(?:from|in|on|by|with|using)\b|\bby\s+(?:clicking|selecting|opening|choosing|"
    r"running|using|going|calling|setting)\b|\bto\s+\w+\b.*,\s*(?:click|run|use|select|open|go)\b|"
    # a command named as the way to do it: "use the visudo command", "running a2enmod", "a command such as adduser"
    r"\b(?:use|using|run|running|execute|executing|invoke|invoking)\s+(?:the\s+)?(?:[\w.]+-[\w.-]+|[a-z]+\d\w*|"
    r"[\w.-]+\s+command)\b|\bcommand\s+such\s+as\b|"
    # ... or named after the word "command": "by using the command passwd -l user"
    r"\b(?:use|using|run|running|execute|executing|invoke|invoking|with)\s+the\s+command\s+[a-z]",
    re.I,
)
_CONDITION = re.compile(r"\b(?:can|cannot|must|only|within|eligible|not|no|yes|allowed|may|unless|if)\b", re.I)
_REASON_WORD = re.compile(
    r"\b(because|since|so\s+that|due\s+to|in\s+order\s+to|therefore|as\s+a\s+result|reason)\b", re.I
)
_NAME_LIKE = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][\w\-]+|`[^`]+`|\b\w+[._]\w+\b|\b[A-Z]{2,}\b|\b\d{3}\b")


def question_terms(question: str, *, config: PipelineConfig) -> list[str]:
    """The question's significant terms, without the words that only ask for a quantity."""
    for pattern, words in _PARAPHRASES:
        question = pattern.sub(words, question)
    return significant_terms(_QUESTION_FILLER.sub(" ", ASKS_QUANTITY.sub(" ", question)), config.tokenizer)


def answer_terms(question: str, *, config: PipelineConfig) -> list[str]:
    """The question's terms a unit must cover to answer it: `question_terms` less the light verbs a manual's answer
    need not repeat ("How do I make a random UUID?" is answered by "uuid4(): Generate a random UUID.")."""
    return question_terms(_ANSWER_FILLER.sub(" ", question), config=config)


# The thing whose default a question asks ("the default password of ...", "its default level"): the word after
# "default", when it is no word that only says "the default" again ("default value", "default setting") nor a measure
# the stated value carries ("the default size of temp_buffers": "The default is eight megabytes").
_DEFAULT_OF = re.compile(
    r"\bdefault\s+(?!(?:values?|settings?|size|length|amount|number|count|kind|type)\b)([A-Za-z][\w-]*)", re.I
)


def default_attribute(question: str, *, config: PipelineConfig) -> str:
    """The term of the thing whose default the question asks for ("password" in "What is the default password of the
    postgres superuser?"), or "" when it names none: a unit that states some other default does not answer."""
    match = _DEFAULT_OF.search(question)
    terms = significant_terms(match.group(1), config.tokenizer) if match else []
    return terms[0] if len(terms) == 1 else ""


# The thing a "how many" question counts: the last word of the phrase after "how many", up to its verb ("how many
# parallel workers can ..." -> "workers"), unless it is a unit the number carries ("how many seconds", "times").
_COUNTED = re.compile(
    r"\bhow\s+many\s+((?:[\w-]+\s+){0,3}?)([A-Za-z][\w-]*)\s+(?:does|do|did|can|could|is|are|was|were|will|"
    r"would|should|may|might|must|has|have|in|of|per|at|for|on|to)\b",
    re.I,
)
_MEASURES = frozenset((
    "times", "bytes", "kilobytes", "megabytes", "gigabytes", "terabytes", "bits", "seconds", "minutes", "hours", "days",
    "weeks", "months", "years", "milliseconds", "microseconds", "dollars", "euros", "percent",
))


def counted_thing(question: str, *, config: PipelineConfig) -> str:
    """The term of the thing a "how many" question counts ("thread" in "How many threads does bz2 use to compress a
    file?"), or "" for a measure the number carries or none found: a unit counting something else does not answer."""
    match = _COUNTED.search(question)
    if match is None or _MEASURES & set(match.group(0).lower().split()):
        return ""  # "how many seconds", "how many times faster"
    terms = significant_terms(match.group(2), config.tokenizer)
    return terms[0] if len(terms) == 1 else ""


def search_terms(question: str, tokenizer: TokenizerConfig) -> list[str]:
    """The retrieval query: the question's tokens, then the manual's word for each everyday phrase it uses ("money
    back" also searches "refund", "back up" also "backup"), so retrieval and the reader read the question alike."""
    tokens = tokenize(question, tokenizer)
    for pattern, words in _PARAPHRASES:
        if pattern.search(question):
            tokens += [token for token in tokenize(words, tokenizer) if token not in tokens]
    return tokens


def question_identifiers(question: str, *, config: PipelineConfig) -> list[frozenset[str]]:
    """The terms of each identifier and each number the question names: an answer must speak of all of one's parts
    ("requests.get" is not answered about `test.support.INTERNET_TIMEOUT` for sharing "timeout", nor "Debian 13"
    about another release)."""
    named = [m.group() for m in _IDENTIFIER.finditer(question)] + _NUMBER.findall(_IDENTIFIER.sub(" ", question))
    found = [frozenset(significant_terms(text, config.tokenizer)) for text in named]
    return [terms for terms in found if terms]


def question_numbers(question: str) -> list[str]:
    """The numbers the question names outside its identifiers and dates ("17" in "When will PostgreSQL 17 be
    released?", not in "What happens on December 17?")."""
    return _NUMBER.findall(_DAY_OF_MONTH.sub(" ", _IDENTIFIER.sub(" ", question)))


def states_number(text: str, number: str) -> bool:
    """Whether the text states the number on its own, not as a part of a date, a clock time or a longer number
    ("12/17/1997", "Dec 17" and "07:17" do not state 17; "17", "17.2" and "17 MB" do)."""
    pattern = rf"(?<![\d/:])(?<!\d[.\-]){re.escape(number)}(?![\d/:]|[.\-]\d+[/:\-])"
    return bool(re.search(pattern, _DAY_OF_MONTH.sub(" ", text)))


def question_acronyms(question: str) -> list[str]:
    """The acronyms the question writes in capitals ("HTTPS", "TCP", "IPv6" is not one), lower-cased: an answer that
    writes a variant of one must write it too (the HTTP port does not answer a question on the HTTPS port)."""
    return sorted({m.lower() for m in _ACRONYM.findall(question)})


def writes_acronym(text: str, acronym: str) -> bool:
    """Whether the text writes the acronym as a word of its own, in any case ("https://", "HTTPS", "an https URL")."""
    return bool(re.search(rf"(?<![A-Za-z0-9]){re.escape(acronym)}(?![A-Za-z0-9])", text, re.I))


def writes_variant(text: str, acronym: str) -> bool:
    """Whether the text writes another thing the acronym's letters begin: a shorter acronym of at least three letters
    it starts with, in any case ("HTTP", "http.server" for "https"), or a longer one in capitals ("HTTPS", "RAID10" for
    "http", "raid1"), not a plural ("APIs") or a word that merely begins alike ("httpd")."""
    shorter = any(writes_acronym(text, acronym[:end]) for end in range(_VARIANT_LETTERS, len(acronym)))
    longer = re.search(rf"(?<![A-Za-z0-9])(?i:{re.escape(acronym)})[A-Z0-9]+(?![A-Za-z0-9])", text)
    return shorter or bool(longer)


def question_called_names(question: str) -> list[tuple[str, ...]]:
    """The parts of each name the question calls or reaches through a dot ("queue.Queue" -> ("queue", "queue"),
    "open()" -> ("open",)), lower-cased: a signature of that name under another module answers another thing."""
    found = [m.group() for m in _IDENTIFIER.finditer(question)]
    return [tuple(name.removesuffix("()").lower().split(".")) for name in found if "." in name or name.endswith("()")]


def question_joined_names(question: str) -> list[str]:
    """The identifiers the question names whose words are joined by underscores ("wal_level", "dirs_exist_ok"),
    lower-cased: an answer must write the name itself, not merely its words apart ("WAL buffers" and "low level")."""
    return sorted({name.lower() for name in _JOINED_NAME.findall(question)})


# A command written in capitals, of two words or more ("CREATE SEQUENCE", "LOCK TABLE", "VACUUM FULL").
_COMMAND = re.compile(r"(?<![\w-])[A-Z]{2,}(?:\s+[A-Z]{2,})+(?![\w-])")


def question_commands(question: str) -> list[tuple[str, ...]]:
    """The words of each command the question writes in capitals ("CREATE SEQUENCE" -> ("CREATE", "SEQUENCE"))."""
    return [tuple(m.group().split()) for m in _COMMAND.finditer(question)]


def names_sibling_command(title: str, commands: Sequence[tuple[str, ...]]) -> bool:
    """Whether the title names another command than each the question writes, of a word in common ("ALTER SEQUENCE"
    or "CREATE TABLE" for "CREATE SEQUENCE"): its page speaks of that other command. A title that starts the asked
    command, or that the command starts ("LOCK" for "LOCK TABLE", "VACUUM" for "VACUUM FULL"), is its page."""
    words = tuple(title.split())
    if not commands or not words or not all(re.fullmatch(r"[A-Z]{2,}", word) for word in words):
        return False
    return all(
        set(words) & set(command) and words[: len(command)] != command and command[: len(words)] != words
        for command in commands
    )


def wants_quantity(question: str) -> bool:
    """Whether the question asks for a number, a duration, a date or an amount."""
    return bool(ASKS_QUANTITY.search(question) or _ASKS_AMOUNT.search(question))


def question_type(question: str) -> QuestionType:
    """The kind of answer the question asks for: the first rule of `_TYPE_RULES` that matches."""
    for kind, pattern in _TYPE_RULES:
        if pattern.search(question):
            return kind
    if re.search(r"^\s*when\b", question, re.I):
        return QuestionType.DATE
    return QuestionType.OTHER


# The reader asks this of every unit of every retrieved block, for each question: the same stored sentences for
# questions about the same passages. It depends only on the text and the kind, so a chunk's next version (other text)
# is read afresh; about a tenth of the pipeline's time under load (cProfile over the load test's questions).
@functools.lru_cache(maxsize=16384)
def holds_type(text: str, kind: QuestionType) -> bool:
    """Whether the text can answer a question of that kind: a duration question needs a duration, a time question a
    clock time, a date question a date, a quantity question a number. Other kinds hold in any text (they are scored,
    not required)."""
    if kind is QuestionType.DURATION:
        return bool(
            _DURATION_UNIT.search(text)
            or _DURATION_WORD.search(text)
            or any(q.unit.split("/")[0] in _TIME_UNITS for q in find_quantities(text))
        )
    if kind is QuestionType.TIME:
        return bool(_CLOCK.search(text))
    if kind is QuestionType.DATE:
        return bool(_DATE_WORD.search(text) or _CLOCK.search(text) or _DURATION_UNIT.search(text))
    if kind is QuestionType.QUANTITY:
        return bool(numbers_in(text) or _QUANTITY_WORD.search(_NUMBER_IDIOM.sub(" ", text)))
    return True


# An ordinal ranks a thing ("the 0'th element", "the 3rd argument"); it counts nothing.
_ORDINAL = re.compile(r"(?<![\w.])\d+(?:['’]?th|st|nd|rd)\b", re.I)
# A name that writes a digit after a letter ("BZ2File", "sqlite3", "X11", "md5") counts nothing either.
_NAME_WITH_DIGIT = re.compile(r"\b[A-Za-z_][A-Za-z_]*\d\w*")


def holds_asked_type(text: str, kind: QuestionType, question: str) -> bool:
    """`holds_type` for this question: for a quantity, the number words the question writes itself, ordinals and
    names holding a digit count nothing ("How many channels can one session listen on?" is not answered by "only one
    instance is delivered", "How many events can it hold?" by "the 0'th element", nor "How many threads does bz2
    use?" by "the BZ2File class")."""
    if kind is QuestionType.QUANTITY:
        own = {word.lower() for word in _QUANTITY_WORD.findall(_NUMBER_IDIOM.sub(" ", question))}
        text = _NAME_WITH_DIGIT.sub(" ", _ORDINAL.sub(" ", text))
        if own:
            text = re.sub(rf"\b(?:{'|'.join(map(re.escape, sorted(own)))})\b", " ", text, flags=re.I)
    return holds_type(text, kind)


def asks_bound(question: str) -> bool:
    """Whether the question asks for a bound ("at most", "the maximum", "the limit", "at least", "the minimum", how
    many "at the same time", "the largest", "what range")."""
    return bool(_ASKS_BOUND.search(question))


def states_bound(text: str) -> bool:
    """Whether the text states a bound: "up to 500 files", "a maximum of 50", "at least 12", "max_connections",
    "the limit is", "no more than", "unlimited", "the largest year", "not below $19", a range's ends ("0 to 59",
    "1 <= day <= 31")."""
    return bool(_STATES_BOUND.search(text))


def type_match(text: str, kind: QuestionType) -> float:
    """How well the text fits the kind asked for, 0..1: 1 for a text that holds a required kind or shows the mark of
    a soft one ("because" for a reason, a name for a name question), 0.5 for a soft kind without its mark."""
    if kind in (QuestionType.DURATION, QuestionType.TIME, QuestionType.DATE, QuestionType.QUANTITY):
        return 1.0 if holds_type(text, kind) else 0.0
    if kind is QuestionType.REASON:
        return 1.0 if _REASON_WORD.search(text) else 0.5
    if kind is QuestionType.NAME:
        return 1.0 if _NAME_LIKE.search(text) else 0.5
    if kind is QuestionType.PROCEDURE:
        return 1.0 if _PROCEDURAL.search(text) else 0.5
    if kind is QuestionType.YES_NO:
        return 1.0 if _CONDITION.search(text) else 0.5
    return 1.0


def sentence_coverage(sentence: str, terms: list[str], *, config: PipelineConfig) -> float:
    """The share of the question's terms that the sentence contains."""
    if not terms:
        return 0.0
    return len(set(terms) & set(significant_terms(sentence, config.tokenizer))) / len(set(terms))
