"""Sources are keyed by path (existing ones by the bare file name they were keyed by: no chunk id or URL changes);
chunks keep their page and the sentences split at ingestion (empty for chunks written before)."""
from django.db import migrations, models
from django.db.models import F


def path_from_name(apps, schema_editor) -> None:
    Source = apps.get_model("corpus_admin", "Source")
    Source.objects.update(path=F("original_name"))


class Migration(migrations.Migration):

    dependencies = [
        ("corpus_admin", "0002_chunk_audience"),
    ]

    operations = [
        migrations.AddField(
            model_name="source",
            name="path",
            field=models.CharField(max_length=500, null=True),
        ),
        migrations.RunPython(path_from_name, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="source",
            name="path",
            field=models.CharField(
                help_text="The source's key: its path in the folder or archive it came from; a single file's name.",
                max_length=500,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="source",
            name="original_name",
            field=models.CharField(help_text="File name as uploaded.", max_length=255),
        ),
        migrations.AddField(
            model_name="chunk",
            name="page",
            field=models.PositiveIntegerField(
                blank=True, help_text="Page (PDF) or slide number, if paged.", null=True
            ),
        ),
        migrations.AddField(
            model_name="chunk",
            name="sentences",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='Sentences of the text as split at ingestion: [{"start", "end", "line", "instruction"?}], '
                "character offsets into the text; code is not split. Empty for chunks written before the text model.",
            ),
        ),
        migrations.AlterField(
            model_name="chunk",
            name="text",
            field=models.TextField(help_text="Display text: markup removed, code kept as code."),
        ),
    ]
