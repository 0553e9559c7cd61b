"""The answerability score: the signals of a unit for a question, and the threshold that turns it into a refusal."""
import dataclasses
import math

from answers.pipeline.config import PipelineConfig
from answers.pipeline.generate.extractive import extract_answer
from answers.pipeline.generate.score import corpus_term_weights, states_asked_default, term_weights, unit_signals
from answers.pipeline.generate.units import block_units
from answers.pipeline.text.questions import QuestionType, question_terms
from answers.pipeline.text.tokens import DEFAULT
from tests.answers.pipeline.generate.documents import document_blocks

DOC = """# Settings

## SESSION_COOKIE_AGE

Default: 1209600 (2 weeks, in seconds).

The age of session cookies is counted from the last request.

## SESSION_SAVE_EVERY_REQUEST

Default: False.

Whether to save the session data on every request.
"""


def signals(text: str, terms: list[str], kind: QuestionType = QuestionType.OTHER):
    blocks = document_blocks("settings.md", DOC)
    units = [u for b in blocks for u in block_units(b) if u.text == text]
    weights = term_weights((u.text for b in blocks for u in block_units(b)), terms, DEFAULT)
    return unit_signals(units[0], terms, kind, weights=weights, best_score=5.0, tokenizer=DEFAULT)


def test_a_rare_term_weighs_more_than_a_common_one():
    texts = ["the session ends", "the session starts", "cookies are small"]

    weights = term_weights(texts, ["session", "cooki"], DEFAULT)

    assert weights["cooki"] > weights["session"]


def test_a_term_only_the_heading_holds_counts_half_and_in_full_for_a_field():
    prose = signals("The age of session cookies is counted from the last request.", ["count", "set"])
    field = signals("Default: 1209600 (2 weeks, in seconds).", ["default", "session", "cooki"])

    assert prose.covered == {"count"} and prose.context_covered == {"set"} and prose.reach == 0.75
    assert field.covered == {"default"} and field.context_covered == {"session", "cooki"}
    assert field.reach == 1.0


def test_a_unit_without_the_asked_type_scores_lower_than_one_with_it():
    with_number = signals("Default: 1209600 (2 weeks, in seconds).", ["default"], QuestionType.QUANTITY)
    without = signals("Default: False.", ["default"], QuestionType.QUANTITY)

    assert with_number.type == 1.0 and without.type == 0.0
    assert with_number.score > without.score


def test_the_answer_score_threshold_turns_a_weak_answer_into_nothing():
    blocks = document_blocks("settings.md", DOC)
    question = "What is the default of SESSION_COOKIE_AGE?"
    configured = PipelineConfig()

    assert extract_answer(question, blocks, config=configured) == ["Default: 1209600 (2 weeks, in seconds) [1]."]
    assert extract_answer(question, blocks, config=dataclasses.replace(configured, min_answer_score=0.99)) == []


REFERENCE = """<html><body>
<h1>Memory</h1>
<dl>
<dt>shared_buffers (integer)</dt>
<dd><p>Sets the amount of memory the server uses for shared memory buffers.
The default is typically 128 megabytes.</p></dd>
<dt>wal_buffers (integer)</dt>
<dd><p>The amount of shared memory used for WAL data. The default setting of -1 selects a size equal to 1/32nd of
shared_buffers.</p></dd>
</dl>
<h1>Functions</h1>
<p>math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0): Return True if the values a and b are close to each other.</p>
<p>shutil.copytree(src, dst, symlinks=False, dirs_exist_ok=False): Recursively copy an entire directory tree rooted
at src to a directory named dst.</p>
<p>subprocess.run(args, *, input=None, timeout=None, check=False): Run the command described by args.</p>
<p>Whether or not two values are considered close is determined according to given absolute and relative
tolerances.</p>
</body></html>
"""


def reference_answer(question: str) -> list[str]:
    return extract_answer(question, document_blocks("ref.html", REFERENCE), config=PipelineConfig())


def test_a_default_is_read_from_the_sentence_under_the_asked_fields_term():
    answer = reference_answer("What is the default value of shared_buffers?")

    assert answer == ["The default is typically 128 megabytes [1]."]


def test_a_signature_states_the_default_of_the_parameter_a_question_names_in_full_words():
    answer = reference_answer("What relative tolerance does math.isclose use when none is given?")

    assert answer == ["math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0): Return True if the values a and b are close "
                      "to each other [2]."]


def test_a_unit_about_another_identifier_does_not_answer_for_sharing_a_word():
    answer = reference_answer("What is the default value of temp_buffers?")

    assert answer == []  # wal_buffers and shared_buffers have defaults here; temp_buffers has none


def test_a_yes_no_question_on_a_default_is_answered_by_the_unit_stating_it():
    question = "Does shutil.copytree accept an existing destination directory by default?"
    blocks = document_blocks("ref.html", REFERENCE)
    terms = question_terms(question, config=PipelineConfig())
    unit = next(u for b in blocks for u in block_units(b) if u.text.startswith("shutil.copytree("))
    weights = term_weights((u.text for b in blocks for u in block_units(b)), terms, DEFAULT)
    fit = unit_signals(unit, terms, QuestionType.YES_NO, weights=weights, best_score=5.0, tokenizer=DEFAULT).type
    other = next(u for b in blocks for u in block_units(b) if u.text.startswith("Whether or not two values"))
    unstated = unit_signals(other, terms, QuestionType.YES_NO, weights=weights, best_score=5.0, tokenizer=DEFAULT)

    assert fit == 1.0  # no "not", "only" or "can": the signature's `dirs_exist_ok=False` is the answer
    assert unstated.type < 1.0


def test_a_signature_stating_the_asked_parameters_default_answers_an_amount_question_without_an_amount():
    question = "What is the default timeout of subprocess.run?"
    terms = question_terms(question, config=PipelineConfig())
    unit = next(u for b in document_blocks("ref.html", REFERENCE) for u in block_units(b)
                if u.text.startswith("subprocess.run("))
    fit = unit_signals(unit, terms, QuestionType.QUANTITY, weights=dict.fromkeys(terms, 1.0), best_score=5.0,
                       tokenizer=DEFAULT).type

    assert states_asked_default(unit, terms, DEFAULT) and fit == 1.0
    assert reference_answer(question) == [
        "subprocess.run(args, *, input=None, timeout=None, check=False): Run the command described by args [2]."
    ]
    # the parameter is not named: "timeout=None" states no number of seconds
    assert reference_answer("How many seconds does subprocess.run wait by default?") == []


def test_a_term_most_chunks_hold_weighs_nearly_nothing_by_the_corpus():
    weights = corpus_term_weights({"lumora": 95, "backup": 7, "data": 14}, 193)

    assert weights is not None
    assert weights["lumora"] < 0.1 < weights["data"] < weights["backup"]


def test_a_term_in_more_than_half_the_chunks_weighs_nothing_and_a_tiny_corpus_gives_no_weights():
    assert corpus_term_weights({"lumora": 150, "backup": 7}, 193) == {"lumora": 0.0, "backup": math.log(186.5 / 7.5)}
    assert corpus_term_weights({"lumora": 1, "backup": 1}, 1) is None


def test_a_pair_fits_a_procedure_by_its_step_even_when_the_step_comes_second():
    text = (
        "# Accounts\n\n## Disabling an account\n\nThe account remains intact and no files are deleted. "
        "This is accomplished by using the command passwd -l user.\n"
    )
    blocks = document_blocks("accounts.md", text)
    pair = next(u for b in blocks for u in block_units(b, procedure=True) if u.kind == "pair")
    terms = question_terms("How do I disable an account without deleting it?", config=PipelineConfig())

    fit = unit_signals(pair, terms, QuestionType.PROCEDURE, weights=dict.fromkeys(terms, 1.0), best_score=1.0,
                       tokenizer=DEFAULT).type

    assert fit == 0.75  # LONE_STEP: the second sentence names the command; a pair is no list of steps


LOGGERS = """<html><body>
<h1>Logger Objects</h1>
<p>Loggers are never instantiated directly. Each logger has a level, and messages under it are ignored.
Note that the root logger is created with level WARNING.</p>
<p>If you wish to use the default format for the root logger, call basicConfig with no format.</p>
</body></html>"""


def test_the_value_a_thing_is_created_with_answers_its_default():
    answer = extract_answer("What is the default level of the root logger?", document_blocks("log.html", LOGGERS),
                            config=PipelineConfig())

    assert answer == ["Note that the root logger is created with level WARNING [1]."]


INITDB = """<html><body>
<h1>initdb</h1>
<p>Selects the user name of the database superuser. This defaults to the name of the effective user running initdb.</p>
</body></html>"""


def test_a_unit_stating_another_default_does_not_answer_for_the_thing_asked():
    blocks = document_blocks("initdb.html", INITDB)

    assert extract_answer("What is the default password of the database superuser?", blocks,
                          config=PipelineConfig()) == []
    assert extract_answer("What is the default user name of the database superuser?", blocks,
                          config=PipelineConfig()) != []


ARCHIVES = """<html><body>
<h1>Compression</h1>
<p>For bz2 modes, tarfile.open() accepts the keyword argument compresslevel (default 9) for the compressed file.</p>
<p>timeit.repeat(stmt='pass', repeat=5, number=1000000): Call timeit() a few times.</p>
</body></html>"""


def test_a_unit_counting_another_thing_does_not_answer_a_how_many_question():
    blocks = document_blocks("archives.html", ARCHIVES)

    assert extract_answer("How many threads does bz2 use to compress a file?", blocks, config=PipelineConfig()) == []
    # a signature stating the asked parameter's default still answers, whatever it calls the counted thing
    assert extract_answer("How many timing rounds does timeit.repeat do by default?", blocks,
                          config=PipelineConfig()) != []
