"""The README's settings table tells the truth: every variable the site reads is there, with its default."""
import re
from pathlib import Path

import pytest
from django.conf import settings

from rag_site.env import DEFAULTS

ROW = re.compile(r"^\| (?P<names>`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \| (?P<default>[^|]+) \|", re.M)
LITERAL = re.compile(r"^`([^`]*)`$")


def readme_table() -> dict[str, str]:
    """Variable -> its default cell, from the table rows of README.md."""
    text = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    table = {}
    for row in ROW.finditer(text):
        for name in re.findall(r"`([A-Z0-9_]+)`", row["names"]):
            table[name] = row["default"].strip()
    return table


def same_default(cell: str, default: object) -> bool:
    """Whether a default cell states the default: `literal` compared by value, "empty" for an empty one."""
    if cell.startswith("empty"):
        return default in ("", [], None)
    literal = LITERAL.match(cell)
    if literal is None:
        return True  # described in words ("on when debug is off"): nothing literal to compare
    value = literal.group(1)
    if "<" in value:  # a placeholder, as in `test_rag_site_<run id>`
        pattern = "".join(".+" if part.startswith("<") else re.escape(part) for part in re.split(r"(<[^>]*>)", value))
        return re.fullmatch(pattern, str(default)) is not None
    if isinstance(default, bool):
        return value == str(default).lower()
    if isinstance(default, int | float):
        return float(value) == float(default)
    if isinstance(default, list):
        return value == ",".join(default)
    return value == default


def test_every_variable_the_site_reads_is_in_the_readme():
    assert sorted(set(DEFAULTS) - set(readme_table())) == []


def test_every_variable_in_the_readme_is_read_by_the_site():
    assert sorted(set(readme_table()) - set(DEFAULTS)) == []


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_the_readme_states_each_default(name):
    cell = readme_table().get(name)
    assert cell is not None and same_default(cell, DEFAULTS[name]), (name, cell, DEFAULTS[name])
