"""A source's key: paths in one normal form, escapes refused, and readable slugs from them."""
import pytest

from corpus_admin.paths import BadPath, normal_path, slug_base


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ("ref/models/fields.txt", "ref/models/fields.txt"),
        ("fields.txt", "fields.txt"),
        ("ref\\models\\fields.txt", "ref/models/fields.txt"),
        ("./ref//models/./fields.txt", "ref/models/fields.txt"),
        ("ref/models/", "ref/models"),
        ("  ref/a file.txt ", "ref/a file.txt"),
        ("cafe\u0301/menu.txt", "caf\u00e9/menu.txt"),  # macOS's decomposed é: one key with the composed one
    ],
)
def test_paths_are_kept_in_one_normal_form(raw, path):
    assert normal_path(raw) == path


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("../secrets.txt", "may not contain '..'"),
        ("ref/../../secrets.txt", "may not contain '..'"),
        ("ref\\..\\..\\secrets.txt", "may not contain '..'"),
        ("/etc/passwd", "an absolute path"),
        ("\\\\server\\share\\a.txt", "an absolute path"),
        ("C:\\Users\\a.txt", "an absolute path"),
        ("", "not a file path"),
        ("./", "not a file path"),
        ("ref/a\x00b.txt", "control characters"),
        ("a/" * 250 + "b.txt", "over the 500 limit"),
        ("n" * 256 + ".txt", "over the 255 limit"),
    ],
)
def test_paths_that_escape_or_cannot_be_stored_are_refused_with_the_reason(raw, reason):
    with pytest.raises(BadPath, match=reason):
        normal_path(raw)


@pytest.mark.parametrize(
    ("path", "slug"),
    [
        ("ref/models/fields.txt", "ref-models-fields"),
        ("refund-policy.md", "refund-policy"),  # a flat path: the slug its name always gave
        ("Getting Started/FAQ.rst", "getting-started-faq"),
        ("ref/release_notes/5.2.txt", "ref-release_notes-52"),
        ("internals/contributing/writing-code/submitting-patches.txt", "contributing-writing-code-submitting-patches"),
        ("a/" + "x" * 70 + ".txt", "x" * 50),
        ("日本語.txt", "document"),
    ],
)
def test_a_new_sources_slug_reads_as_its_path_within_fifty_characters(path, slug):
    assert slug_base(path) == slug
