"""What a question asks for, and whether a text holds it."""
import pytest

from answers.pipeline.config import PipelineConfig
from answers.pipeline.text.questions import (
    QuestionType,
    answer_terms,
    asks_bound,
    counted_thing,
    default_attribute,
    holds_asked_type,
    holds_type,
    names_sibling_command,
    question_acronyms,
    question_called_names,
    question_commands,
    question_identifiers,
    question_numbers,
    question_terms,
    question_type,
    search_terms,
    states_bound,
    states_number,
    type_match,
    writes_acronym,
    writes_variant,
)

T = QuestionType


@pytest.mark.parametrize(("question", "kind"), [
    ("How long does a refund take to process?", T.DURATION),
    ("How frequently does Lumora back up data?", T.DURATION),
    ("How quickly are partner support tickets answered?", T.DURATION),
    ("After how long is a log file rotated by default?", T.DURATION),
    ("Within how long must a claim be filed?", T.DURATION),
    ("How long must a password be?", T.QUANTITY),
    ("How many members can a Team workspace have?", T.QUANTITY),
    ("What does an extra storage block cost?", T.QUANTITY),
    ("What's the biggest file the desktop app will sync?", T.QUANTITY),
    ("What is the cut-off time for orders?", T.TIME),
    ("At what time of day are invoices sent?", T.TIME),
    ("When are invoices issued?", T.DATE),
    ("Which year was the company founded?", T.DATE),
    ("How do I reset my password?", T.PROCEDURE),
    ("How to create a tablespace?", T.PROCEDURE),
    ("How do I change a user's disk quota?", T.PROCEDURE),  # an amount named, but a way to do something asked
    ("What is the default lock timeout?", T.QUANTITY),
    ("Why is VACUUM needed?", T.REASON),
    ("Which Debian package provides the BIND DNS server?", T.NAME),
    ("Who approves refund requests?", T.NAME),
    ("What is a tablespace?", T.DEFINITION),
    ("Can I get my money back?", T.YES_NO),
    ("Tell me about the Business plan.", T.OTHER),
])
def test_question_type(question, kind):
    assert question_type(question) is kind


@pytest.mark.parametrize(("text", "kind", "holds"), [
    ("Refunds are processed within 5-7 business days.", T.DURATION, True),
    ("Backups are taken every 6 hours.", T.DURATION, True),
    ("Partner support tickets are answered within 8 business hours.", T.DURATION, True),
    ("Password reset links expire after one hour.", T.DURATION, True),
    ("Refunds are processed by the billing team.", T.DURATION, False),
    ("Orders placed before 14:00 ship the same day.", T.TIME, True),
    ("Orders placed before noon ship the same day.", T.TIME, True),
    ("Orders ship the same day.", T.TIME, False),
    ("Invoices are issued on the 1st of each month.", T.DATE, True),
    ("Invoices are issued in US dollars or euros.", T.DATE, False),
    ("The Team plan allows a maximum of 50 members.", T.QUANTITY, True),
    ("The Team plan is for small teams.", T.QUANTITY, False),
    ("Two replicas are kept.", T.QUANTITY, True),
    ("There is no limit on the number of tablespaces.", T.QUANTITY, True),
    ("An identifier may hold one or more letters.", T.QUANTITY, False),  # an idiom counts nothing
    ("Each table belongs to one of the schemas.", T.QUANTITY, False),
    ("No one may log in without a password.", T.QUANTITY, False),
    ("There are a dozen of ways to configure it.", T.QUANTITY, False),
    ("No password is needed for local connections.", T.QUANTITY, False),  # a bare "no" denies, it counts nothing
    ("Anything at all.", T.NAME, True),  # soft kinds are scored, not required
])
def test_a_text_holds_a_required_type_only_with_its_value(text, kind, holds):
    assert holds_type(text, kind) is holds


@pytest.mark.parametrize(("text", "question", "holds"), [
    ("Only one instance of the event is delivered.", "How many channels can one session listen on?", False),
    ("Only one instance of the event is delivered.", "How many instances are delivered?", True),
    ("It returns the 0'th element first.", "How many elements can the heap hold?", False),
    ("The heap holds up to 512 elements.", "How many elements can the heap hold?", True),
    # a name writing a digit after a letter counts nothing
    ("The open() function and BZ2File class for reading compressed files.", "How many threads does bz2 use?", False),
    ("The sqlite3 module caches 128 statements.", "How many statements does sqlite3 cache?", True),
    # other kinds hold as before
    ("Only one instance of the event is delivered.", "What time is the event delivered?", False),
])
def test_a_quantity_the_question_writes_itself_or_an_ordinal_counts_nothing_asked(text, question, holds):
    assert holds_asked_type(text, question_type(question), question) is holds


def test_a_remembered_answer_is_the_texts_and_kinds_own():
    """holds_type remembers what it read by text and kind: a chunk's next version (other text) or another kind of
    question is read afresh, never given the answer remembered for the old text."""
    before = "Refunds take 5 business days."
    after = "Refunds are handled by the billing team."
    assert holds_type(before, QuestionType.DURATION) is True
    assert holds_type(after, QuestionType.DURATION) is False
    assert holds_type(before, QuestionType.TIME) is False
    assert holds_type(before, QuestionType.DURATION) is True


def test_soft_types_score_their_mark_higher():
    assert type_match("Click Forgot password on the sign-in page.", T.PROCEDURE) == 1.0
    assert type_match("Password reset links expire after one hour.", T.PROCEDURE) == 0.5
    # a command named as the way to do it is a step, a command merely mentioned is not
    assert type_match("This can be achieved with a command such as adduser user group.", T.PROCEDURE) == 1.0
    assert type_match("The administrator can use the visudo command to edit it.", T.PROCEDURE) == 1.0
    assert type_match("Enabling new modules is a simple matter of running a2enmod module.", T.PROCEDURE) == 1.0
    assert type_match("The visudo command is shipped with sudo.", T.PROCEDURE) == 0.5
    assert type_match("Most people use the same file on every machine.", T.PROCEDURE) == 0.5
    assert type_match("Vacuum is needed because rows are never updated in place.", T.REASON) == 1.0
    assert type_match("Vacuum reclaims storage.", T.REASON) == 0.5


def test_question_terms_leave_out_what_only_asks_for_a_type_and_use_the_manuals_word():
    config = PipelineConfig()

    assert question_terms("How frequently does Lumora back up data?", config=config) == ["lumora", "backup", "data"]
    assert question_terms("Can I get my money back?", config=config) == ["refund"]


@pytest.mark.parametrize(("question", "terms"), [
    ("How many times does timeit run the statement when number is not given?",
     ["time", "timeit", "run", "statement", "number", "default"]),
    ("Which user does FTP.login sign in as if I do not give one?", ["user", "ftp", "login", "sign", "default"]),
    ("Why is the key not given to the user?", ["key", "given", "user"]),  # no default asked
])
def test_a_default_asked_as_what_is_left_out_reads_as_the_default(question, terms):
    assert question_terms(question, config=PipelineConfig()) == terms


@pytest.mark.parametrize(("question", "terms"), [
    ("How do I make a random UUID?", ["random", "uuid"]),
    ("How do I keep only the last N items in a queue?", ["last", "n", "item", "queue"]),
    ("Is there a version of wireshark that works without a graphical interface?",
     ["version", "wireshark", "without", "graphic", "interfac"]),
    ("What does Path.make_dirs give back?", ["path", "make", "dir", "back"]),  # a name keeps its words
])
def test_a_light_verb_of_the_question_is_no_term_a_sentence_must_repeat(question, terms):
    assert answer_terms(question, config=PipelineConfig()) == terms


def test_the_follow_up_resolver_still_counts_the_readers_light_verbs():
    assert question_terms("How do I make a random UUID?", config=PipelineConfig()) == ["make", "random", "uuid"]


@pytest.mark.parametrize(("question", "attribute"), [
    ("What is the default password of the postgres superuser?", "password"),
    ("What is the default level of the root logger?", "level"),
    ("What is the default size of temp_buffers?", ""),  # a measure the stated value carries
    ("What is the default value of shared_buffers?", ""),
    ("Which algorithm is used to encrypt passwords by default?", ""),
])
def test_the_thing_whose_default_is_asked_is_the_word_after_default(question, attribute):
    assert default_attribute(question, config=PipelineConfig()) == attribute


@pytest.mark.parametrize(("question", "counted"), [
    ("How many threads does bz2 use to compress a file?", "thread"),
    ("How many parallel workers can a single Gather node start by default?", "worker"),
    ("How many seconds does pg_isready wait for a connection by default?", ""),  # a measure the number carries
    ("How many times faster is json.dumps than pickle.dumps?", ""),
    ("What is the default level of the root logger?", ""),
])
def test_the_thing_a_how_many_question_counts_is_the_head_of_its_phrase(question, counted):
    assert counted_thing(question, config=PipelineConfig()) == counted


def test_a_method_named_login_is_no_everyday_log_in():
    terms = question_terms("Which user does FTP.login log in as if I do not give one?", config=PipelineConfig())

    assert terms == ["user", "ftp", "login", "sign", "default"]  # "log in" is the manual's "sign in"; the name stays


def test_search_terms_keep_the_askers_words_and_add_the_manuals_word():
    tokenizer = PipelineConfig().tokenizer

    assert search_terms("How frequently does Lumora back up data?", tokenizer)[-1:] == ["backup"]
    assert {"money", "refund"} <= set(search_terms("Can I get my money back?", tokenizer))
    assert search_terms("How do I reset my password?", tokenizer) == search_terms("reset password", tokenizer)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What is the default timeout of requests.get?", [{"request", "get"}]),
        ("What is the default value of shared_buffers?", [{"share", "buffer"}]),
        ("On what date will PostgreSQL 17 be released?", [{"17"}]),
        ("Is the 2FA code valid for 30 seconds?", [{"30"}]),
        ("How do I get a refund?", []),
    ],
)
def test_the_identifiers_and_numbers_a_question_names_are_read_whole(question, named):
    assert [set(terms) for terms in question_identifiers(question, config=PipelineConfig())] == named


def test_a_default_asked_in_other_words_is_asked_as_default():
    config = PipelineConfig()

    assert "default" in question_terms("What relative tolerance does math.isclose use when none is given?",
                                       config=config)
    assert "default" in question_terms("Which port does the server listen on unless configured otherwise?",
                                       config=config)
    assert "valu" not in question_terms("What is the default value of shared_buffers?", config=config)


@pytest.mark.parametrize(("question", "bound"), [
    ("How many lines can pg_hba.conf hold at most?", True),
    ("What is the maximum number of members on the Team plan?", True),
    ("What minimum password length is enforced?", True),
    ("What is the API rate limit?", True),
    ("How many connections can sqlite3.connect open at the same time?", True),  # a capacity is a bound
    ("What is the largest year a date object can hold?", True),
    ("What range of values can a smallint hold?", True),
    ("How many files does a batch contain?", False),
    ("How long are deleted files kept?", False),
])
def test_a_question_asks_for_a_bound_when_it_says_most_least_maximum_minimum_or_limit(question, bound):
    assert asks_bound(question) is bound


@pytest.mark.parametrize(("text", "bound"), [
    ("A single upload batch can contain up to 500 files.", True),
    ("The Team plan allows a maximum of 50 members.", True),
    ("Passwords must be at least 12 characters long.", True),
    ("Sets max_connections, the number of concurrent connections (100).", True),
    ("The API rate limit is 600 requests per minute.", True),
    ("The largest year number allowed in a date object.", True),
    ("The minute field takes values from 0 to 59.", True),
    ("Valid days: 1 <= day <= 31.", True),
    ("Sales may not sell the Business plan below $19 per user.", True),
    ("The file holds a set of records, one per line.", False),
    ("Version 2 to the list.", False),
    ("The default port is 5432.", False),
])
def test_a_text_states_a_bound_with_a_word_or_name_for_one(text, bound):
    assert states_bound(text) is bound


@pytest.mark.parametrize(("question", "acronyms", "numbers"), [
    ("What is the default HTTPS port of http.server?", ["https"], []),
    ("Which TCP port does the server listen on?", ["tcp"], []),
    ("On what date will PostgreSQL 17 be released?", [], ["17"]),
    ("What happens on December 17?", [], []),  # a day of a month is a date, not a number named
    ("How many UUIDs per second can uuid4() generate?", [], []),  # a plural is no acronym, uuid4() an identifier
    ("What is the default value of shared_buffers?", [], []),
])
def test_the_acronyms_and_numbers_a_question_names_are_read(question, acronyms, numbers):
    assert (question_acronyms(question), question_numbers(question)) == (acronyms, numbers)


@pytest.mark.parametrize(("text", "stated"), [
    ("PostgreSQL 17 adds incremental backups.", True),
    ("Release 17.2 fixes it.", True),
    ("Up to 17 MB.", True),
    ("Example: 12/17/1997 07:37:16.00 PST.", False),  # a date's day
    ("Started at 07:17.", False),  # a clock time's minutes
    ("Example: 1997-12-17.", False),
    ("Example: Wed Dec 17 07:37:16 1997 PST.", False),  # a day of a month, by the month's name
    ("the 17th of March", False),
    ("17 may be set at most.", True),  # "may" after a number is the verb
    ("Released in 2017.", False),  # a longer number
])
def test_a_number_is_stated_on_its_own_not_as_part_of_a_date_time_or_longer_number(text, stated):
    assert states_number(text, "17") is stated


@pytest.mark.parametrize(("text", "written"), [
    ("Serve it over HTTPS on port 4443.", True),
    ("an https:// URL", True),
    ("The HTTP server listens to port 8000.", False),
    ("httpsd is another program", False),
])
def test_an_acronym_is_written_as_a_word_of_its_own_in_any_case(text, written):
    assert writes_acronym(text, "https") is written


@pytest.mark.parametrize(("text", "acronym", "variant"), [
    ("The HTTP server listens to port 8000.", "https", True),  # shorter, in any case
    ("The http.server module", "https", True),
    ("All requests must use HTTPS.", "http", True),  # longer, in capitals
    ("Create a RAID10 array.", "raid1", True),  # a level beyond the one asked for
    ("Create a RAID10 array.", "raid", True),
    ("Public APIs are listed.", "api", False),  # a plural
    ("Start httpd first.", "http", False),  # a word beginning alike
    ("The APT sources list.", "api", False),  # two shared letters are not a variant
    ("The API returns status code 401.", "http", False),
    ("Serve it over HTTPS.", "https", False),  # the acronym itself
])
def test_a_variant_of_an_acronym_is_a_shorter_one_it_starts_with_or_a_longer_one_in_capitals(text, acronym, variant):
    assert writes_variant(text, acronym) is variant


@pytest.mark.parametrize(("text", "procedural"), [
    ("Locking is done with the command passwd -l user.", True),
    ("Administrators invoke the command lsblk for that.", True),
    ("The command is very old.", False),
])
def test_a_command_named_after_the_word_command_is_a_step(text, procedural):
    assert (type_match(text, T.PROCEDURE) == 1.0) is procedural


def test_called_names_are_the_dotted_names_and_the_calls_a_question_writes_in_parts():
    assert question_called_names("What is the default maxsize of queue.Queue?") == [("queue", "queue")]
    assert question_called_names("In which mode does open() open a file?") == [("open",)]
    assert question_called_names("Does Path.mkdir() create parents, and is wal_level read?") == [("path", "mkdir")]


@pytest.mark.parametrize(("title", "question", "sibling"), [
    ("ALTER SEQUENCE", "What data type does CREATE SEQUENCE use by default?", True),
    ("CREATE TABLE", "What data type does CREATE SEQUENCE use by default?", True),
    ("CREATE SEQUENCE", "What data type does CREATE SEQUENCE use by default?", False),
    ("LOCK", "Which lock mode does LOCK TABLE take by default?", False),  # the title starts the command
    ("VACUUM", "What does VACUUM FULL cost?", False),
    ("TRUNCATE", "Which lock mode does LOCK TABLE take by default?", False),  # no word in common
    ("13.3. Explicit Locking", "Which lock mode does LOCK TABLE take by default?", False),  # not a command's page
    ("ALTER SEQUENCE", "What data type does a sequence use by default?", False),  # no command asked
])
def test_a_page_titled_by_another_command_of_a_shared_word_is_a_sibling(title, question, sibling):
    assert names_sibling_command(title, question_commands(question)) is sibling
