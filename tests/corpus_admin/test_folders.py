"""A folder's files: which are read, the line for those skipped, and what audiences.json says about each."""
import pytest

from corpus_admin.folders import FileDetails, details_by_path, is_supported, skipped_summary


@pytest.mark.parametrize(
    ("path", "supported"),
    [("ref/fields.txt", True), ("Guide.MD", True), ("ref/index.rst", True), ("img/logo.png", False),
     ("conf.py", False), ("Makefile", False)],
)
def test_supported_files_are_known_by_their_extension(path, supported):
    assert is_supported(path) is supported


@pytest.mark.parametrize(
    ("paths", "line"),
    [
        ([], ""),
        (["logo.png"], "skipped 1 file of unsupported type: .png (1)"),
        (["a.png", "b.png"], "skipped 2 files of unsupported type: .png (2)"),
        (["a.png", "b.PNG", "conf.py", "Makefile", "c.png", "x.css"],
         "skipped 6 files of unsupported types: .png (3), .css (1), .py (1), no extension (1)"),
    ],
)
def test_skipped_files_are_summed_up_in_one_line_by_extension_most_first(paths, line):
    assert skipped_summary(paths) == line


PATHS = ["faq/index.txt", "ref/index.txt", "ref/models/fields.txt", "top.md"]


def test_audiences_json_names_files_by_path_or_by_a_bare_name_that_is_unique():
    manifest = {
        "faq/index.txt": "internal",
        "fields.txt": FileDetails(audience="partner", title="Fields"),
        "./top.md": "partner",
        "../outside.md": "internal",
    }

    details = details_by_path(
        {name: FileDetails(audience=v) if isinstance(v, str) else v for name, v in manifest.items()}, PATHS
    )

    assert details == {
        "faq/index.txt": FileDetails(audience="internal"),
        "ref/index.txt": FileDetails(),
        "ref/models/fields.txt": FileDetails(audience="partner", title="Fields"),
        "top.md": FileDetails(audience="partner"),
    }


def test_a_bare_name_in_audiences_json_that_names_several_files_is_an_error_for_each_of_them():
    details = details_by_path({"index.txt": FileDetails(audience="internal")}, PATHS)

    expected = (
        "audiences.json names 'index.txt', which is 2 files (faq/index.txt, ref/index.txt): name each by its path"
    )
    assert details["faq/index.txt"] == details["ref/index.txt"] == expected
    assert details["top.md"] == FileDetails()
