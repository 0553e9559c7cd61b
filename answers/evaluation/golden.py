"""The golden file: JSONL, one case a line, checked field by field with errors that name the line; its sources are
named by path relative to the corpus folder, or by a file name that only one of them has.

Optional fields: `forbid` (text no answer may contain), `category` (what the question tests, e.g. `howto`; the
held-out split is stratified by it) and `held_out` (true for the cases kept out of tuning; the report gives their
figures apart, see split.py)."""
import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from corpus_admin.paths import BadPath, file_name_of, normal_path
from corpus_admin.visibility import EVERYONE, PUBLIC_ONLY, WITH_PARTNER

# A case's audience names the most restricted documents its caller may see.
AUDIENCES: dict[str, tuple[str, ...]] = {"public": PUBLIC_ONLY, "partner": WITH_PARTNER, "internal": EVERYONE}
KINDS = ("answered", "no_material", "conflict", "unsupported")
REQUIRED = ("id", "question", "audience", "expect", "sources", "facts")

Fact = tuple[str, ...]  # alternative spellings; finding any one of them finds the fact


class GoldenError(ValueError):
    """A golden file that cannot be read, with the file and line at fault."""


@dataclass(frozen=True)
class GoldenCase:
    """One question with the kind of reply, the sources and the facts a right answer has."""

    id: str
    question: str
    audience: str
    expect: str
    sources: tuple[str, ...]
    facts: tuple[Fact, ...]
    forbid: tuple[str, ...] = ()
    category: str = ""
    held_out: bool = False
    line: int = 0

    @property
    def audiences(self) -> tuple[str, ...]:
        """What a caller of this case's audience may see (§3)."""
        return AUDIENCES[self.audience]


def load_golden(path: Path | str) -> tuple[GoldenCase, ...]:
    """Read every case of a golden file; raise GoldenError naming the file and line of the first bad one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GoldenError(f"{path}: cannot read the golden file ({error})") from None
    cases: list[GoldenCase] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            case = parse_case(raw, line=number)
        except ValueError as error:
            raise GoldenError(f"{path}, line {number}: {error}") from None
        if case.id in seen:
            raise GoldenError(f"{path}, line {number}: id {case.id!r} already used on line {seen[case.id]}")
        seen[case.id] = number
        cases.append(case)
    if not cases:
        raise GoldenError(f"{path}: no cases in the golden file")
    return tuple(cases)


def resolve_sources(
    cases: Sequence[GoldenCase], *, paths: Iterable[str], golden: Path | str
) -> tuple[GoldenCase, ...]:
    """The cases with each source named by its path among the corpus's `paths` (relative to --corpus).

    A path names itself; a bare file name names the one source with that name, and is an error naming the line when
    several have it (`index.txt` in two folders). A name that no source has stays as written: it matches nothing.
    """
    by_name: dict[str, list[str]] = {}
    for path in paths:
        by_name.setdefault(file_name_of(path), []).append(path)
    known = {path for holders in by_name.values() for path in holders}
    resolved = []
    for case in cases:
        sources = []
        for source in case.sources:
            try:
                path = normal_path(source)
            except BadPath:
                path = source
            holders = sorted(by_name.get(path, ())) if "/" not in path and path not in known else []
            if len(holders) > 1:
                raise GoldenError(
                    f"{golden}, line {case.line}: source {source!r} names {len(holders)} documents "
                    f"({', '.join(holders)}): name it by its path"
                )
            sources.append(holders[0] if holders else path)
        resolved.append(dataclasses.replace(case, sources=tuple(sources)))
    return tuple(resolved)


def case_object(raw: str, required: Sequence[str]) -> dict:
    """One JSON line as a case's object with its required fields, id, question and audience checked (golden and
    replay cases alike); ValueError says which field is wrong."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(data, dict):
        raise ValueError("a case must be a JSON object")
    missing = [name for name in required if name not in data]
    if missing:
        raise ValueError(f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    for name in ("id", "question"):
        if not isinstance(data[name], str) or not data[name].strip():
            raise ValueError(f"{name!r} must be a non-empty string")
    if data["audience"] not in AUDIENCES:
        raise ValueError(f"'audience' must be one of {', '.join(AUDIENCES)}, not {data['audience']!r}")
    return data


def parse_case(raw: str, *, line: int = 0) -> GoldenCase:
    """One JSON line as a case; ValueError says which field is wrong."""
    data = case_object(raw, REQUIRED)
    if data["expect"] not in KINDS:
        raise ValueError(f"'expect' must be one of {', '.join(KINDS)}, not {data['expect']!r}")
    if not isinstance(data.get("held_out", False), bool):
        raise ValueError(f"'held_out' must be true or false, not {data['held_out']!r}")
    category = data.get("category", "")
    if not isinstance(category, str):
        raise ValueError(f"'category' must be a string, not {category!r}")
    return GoldenCase(
        id=data["id"].strip(),
        question=data["question"].strip(),
        audience=data["audience"],
        expect=data["expect"],
        sources=_strings(data["sources"], "sources"),
        facts=tuple(_fact(item) for item in _list(data["facts"], "facts")),
        forbid=_strings(data.get("forbid", []), "forbid"),
        category=category.strip(),
        held_out=data.get("held_out", False),
        line=line,
    )


def _list(value: object, name: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{name!r} must be a list")
    return value


def _strings(value: object, name: str) -> tuple[str, ...]:
    items = _list(value, name)
    if not all(isinstance(item, str) and item.strip() for item in items):
        raise ValueError(f"every element of {name!r} must be a non-empty string")
    return tuple(item.strip() for item in items)


def _fact(item: object) -> Fact:
    if isinstance(item, str) and item.strip():
        return (item.strip(),)
    if isinstance(item, list) and item and all(isinstance(alt, str) and alt.strip() for alt in item):
        return tuple(alt.strip() for alt in item)
    raise ValueError("every element of 'facts' must be a non-empty string or a non-empty list of strings")
