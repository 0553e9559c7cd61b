import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def issue_answer_keys(apps, schema_editor) -> None:
    """Give every row logged before answer keys existed a key of its own (a column default would give all one)."""
    QuestionLog = apps.get_model("answers", "QuestionLog")
    for log in QuestionLog.objects.filter(answer_key__isnull=True).only("pk").iterator():
        QuestionLog.objects.filter(pk=log.pk).update(answer_key=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ("answers", "0002_question_log_diagnostics"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="questionlog",
            name="answer_key",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(issue_answer_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="questionlog",
            name="answer_key",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("session_key", models.CharField(blank=True, max_length=64)),
                ("helpful", models.BooleanField()),
                ("comment", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True, db_index=True)),
                (
                    "log",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="answers.questionlog"
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-updated_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", False)), fields=("log", "user"),
                        name="one_rating_per_user_per_answer",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(("user__isnull", True)), fields=("log", "session_key"),
                        name="one_rating_per_session_per_answer",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("user__isnull", False), models.Q(("session_key", ""), _negated=True),
                                           _connector="OR"),
                        name="rating_has_a_caller",
                    ),
                ],
            },
        ),
    ]
