"""The golden file: valid cases are read field by field; a malformed line is an error naming the file and line."""
import json

import pytest

from answers.evaluation.golden import GoldenError, load_golden, resolve_sources

GOOD = {"id": "c1", "question": "How long?", "audience": "partner", "expect": "answered", "sources": ["a.md"],
        "facts": ["30 days", ["5-7", "5–7"]], "forbid": ["free"], "note": "ignored"}


def write(tmp_path, *lines: str):
    path = tmp_path / "golden.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_valid_case_is_read_with_alternatives_and_audience_tier(tmp_path):
    (case,) = load_golden(write(tmp_path, json.dumps(GOOD)))

    assert case.facts == (("30 days",), ("5-7", "5–7"))
    assert case.sources == ("a.md",) and case.forbid == ("free",)
    assert case.audiences == ("public", "partner")
    assert case.line == 1


def test_category_and_held_out_are_read_and_default_to_none_and_tuning(tmp_path):
    marked = json.dumps({**GOOD, "id": "c2", "category": " howto ", "held_out": True})
    plain, held = load_golden(write(tmp_path, json.dumps(GOOD), marked))

    assert (plain.category, plain.held_out) == ("", False)
    assert (held.category, held.held_out) == ("howto", True)


def test_blank_lines_are_skipped_and_line_numbers_kept(tmp_path):
    second = json.dumps({**GOOD, "id": "c2"})
    cases = load_golden(write(tmp_path, json.dumps(GOOD), "", second))

    assert [c.line for c in cases] == [1, 3]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "facts"}), "missing field facts"),
        (json.dumps({**GOOD, "audience": "everyone"}), "'audience' must be one of"),
        (json.dumps({**GOOD, "expect": "refused"}), "'expect' must be one of"),
        (json.dumps({**GOOD, "sources": "a.md"}), "'sources' must be a list"),
        (json.dumps({**GOOD, "facts": [30]}), "every element of 'facts'"),
        (json.dumps({**GOOD, "facts": [[]]}), "every element of 'facts'"),
        (json.dumps({**GOOD, "question": ""}), "'question' must be a non-empty string"),
        (json.dumps({**GOOD, "id": 7}), "'id' must be a non-empty string"),
        (json.dumps({**GOOD, "forbid": [None]}), "every element of 'forbid'"),
        (json.dumps({**GOOD, "held_out": "yes"}), "'held_out' must be true or false"),
        (json.dumps({**GOOD, "category": ["howto"]}), "'category' must be a string"),
    ],
)
def test_malformed_line_is_an_error_naming_file_and_line(tmp_path, line, message):
    path = write(tmp_path, json.dumps(GOOD), line)

    with pytest.raises(GoldenError, match=message) as error:
        load_golden(path)
    assert f"{path}, line 2:" in str(error.value)


def test_duplicate_id_names_both_lines(tmp_path):
    with pytest.raises(GoldenError, match="line 2: id 'c1' already used on line 1"):
        load_golden(write(tmp_path, json.dumps(GOOD), json.dumps(GOOD)))


def test_empty_golden_file_is_an_error(tmp_path):
    with pytest.raises(GoldenError, match="no cases"):
        load_golden(write(tmp_path, ""))


PATHS = ["faq/index.txt", "ref/index.txt", "ref/models/fields.txt", "index.txt", "top.md"]


@pytest.mark.parametrize(
    ("sources", "resolved"),
    [
        (["ref/models/fields.txt"], ("ref/models/fields.txt",)),
        (["./ref//models/fields.txt"], ("ref/models/fields.txt",)),
        (["fields.txt"], ("ref/models/fields.txt",)),  # a bare name that one source has
        (["index.txt"], ("index.txt",)),  # a path names itself, even when other folders have the name
        (["faq/index.txt", "top.md"], ("faq/index.txt", "top.md")),
        (["missing.md"], ("missing.md",)),  # matches nothing, as before
    ],
)
def test_golden_sources_are_named_by_path_or_by_a_file_name_only_one_source_has(tmp_path, sources, resolved):
    cases = load_golden(write(tmp_path, json.dumps({**GOOD, "sources": sources})))

    (case,) = resolve_sources(cases, paths=PATHS, golden="g.jsonl")

    assert case.sources == resolved


def test_a_golden_file_name_that_several_sources_have_is_an_error_naming_the_line(tmp_path):
    cases = load_golden(write(tmp_path, json.dumps(GOOD), json.dumps({**GOOD, "id": "c2", "sources": ["guide.txt"]})))

    with pytest.raises(GoldenError) as error:
        resolve_sources(cases, paths=["a/guide.txt", "b/guide.txt"], golden="g.jsonl")

    assert str(error.value) == (
        "g.jsonl, line 2: source 'guide.txt' names 2 documents (a/guide.txt, b/guide.txt): name it by its path"
    )
