"""The term a line of a reference page defines: a definition's term, a parameter item, a signature's name."""
import pytest

from answers.pipeline.generate.fields import line_term, parameter_defaults


@pytest.mark.parametrize(
    ("line", "term"),
    [
        ("shared_buffers (integer): Sets the amount of memory the server uses.", "shared_buffers (integer)"),
        ("cached_statements (int) – The number of statements to cache.", "cached_statements (int)"),
        ("Parameters: database (path-like object) – The path to the database file.", "database (path-like object)"),
        ("frozen: If true (the default is False), assigning to fields raises.", "frozen"),
        ("math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0): Return True if the values are close.", "math.isclose"),
        ("@functools.lru_cache(maxsize=128, typed=False): Decorator to wrap a function.", "functools.lru_cache"),
    ],
)
def test_a_line_that_starts_by_defining_a_term_gives_that_term(line, term):
    assert line_term(line).term == term


@pytest.mark.parametrize(
    "line",
    [
        "If you do this: the server restarts.",  # a sentence with an early colon
        "Default: 1209600 (2 weeks, in seconds).",  # a label keeps the term above it
        "Note: backups run at night.",
        "To restore a dump, the following steps are needed, in this order: stop the server.",
        "The syntax is simple: each line names an address.",
        "open a file and read it.",
    ],
)
def test_a_sentence_or_a_label_defines_no_term(line):
    assert line_term(line).term == ""


def test_a_signature_is_kept_whole_and_its_defaults_read_from_it():
    line = "open(file, mode='r', buffering=-1, encoding=None, opener=None): Open file and return a file object."

    defined = line_term(line)

    assert defined.signature == "open(file, mode='r', buffering=-1, encoding=None, opener=None)"
    assert parameter_defaults(defined.signature) == {
        "mode": "'r'", "buffering": "-1", "encoding": "None", "opener": "None"
    }


def test_a_call_in_running_text_is_not_a_signature():
    assert line_term("print(x) writes x to standard output, as print(x, y) does.").signature == ""
