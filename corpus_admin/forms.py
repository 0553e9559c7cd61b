"""The admin's upload form: one or many files with an audience and an optional document date."""
from django import forms

from corpus_admin.models import Audience


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that accepts several files and returns them as a list."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single_clean = super().clean
        if isinstance(data, (list, tuple)):
            return [single_clean(item, initial) for item in data]
        return [single_clean(data, initial)]


class UploadForm(forms.Form):
    # The form's metaclass moves declared fields into base_fields, so this never shadows BaseForm.files (the stubs
    # read it as a class attribute of that name).
    files = MultipleFileField(  # type: ignore[assignment]
        help_text=(
            "Markdown, plain text, reST, HTML or PDF, or a folder of them as a .zip archive (its files are named by "
            "their paths in it, and those of other types are skipped). A file named like an existing source (in an "
            "archive: with the same path) becomes its next version."
        )
    )
    # Blank by default: a new version keeps its source's audience, so re-uploading an internal document with the
    # form as it comes never publishes it. New files without a choice are public.
    audience = forms.ChoiceField(
        choices=[("", "Keep the current audience (new files: public)"), *Audience.choices],
        required=False,
        help_text="Who may see the passages. Leave blank to keep an existing source's audience.",
    )
    document_date = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The document's own date; today when left empty and the content changed.",
    )
    title = forms.CharField(required=False, max_length=300, help_text="Only used when uploading a single file.")
