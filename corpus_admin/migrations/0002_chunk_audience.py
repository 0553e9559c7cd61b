"""Each chunk gets the audience it is served under; existing chunks take their source's (their history is unknown)."""
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def audience_from_source(apps, schema_editor) -> None:
    Chunk = apps.get_model("corpus_admin", "Chunk")
    Source = apps.get_model("corpus_admin", "Source")
    Chunk.objects.update(audience=Subquery(Source.objects.filter(pk=OuterRef("source_id")).values("audience")[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ("corpus_admin", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="audience",
            field=models.CharField(
                choices=[("public", "Public"), ("partner", "Partners"), ("internal", "Internal")],
                max_length=10,
                null=True,
            ),
        ),
        migrations.RunPython(audience_from_source, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="chunk",
            name="audience",
            field=models.CharField(
                choices=[("public", "Public"), ("partner", "Partners"), ("internal", "Internal")],
                help_text=(
                    "Who may read this passage: its source's audience while served; after, never looser than it was."
                ),
                max_length=10,
            ),
        ),
    ]
