# Chunk vectors for dense retrieval, keyed by the hash of the embedded text (issue 17, item 3)

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('corpus_admin', '0005_ingestjob_force'),
    ]

    operations = [
        migrations.CreateModel(
            name='TextVector',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(help_text='sha256 of the model id and the text.', max_length=64, unique=True)),
                ('model', models.CharField(max_length=60)),
                ('vector', models.BinaryField(help_text='float32, little-endian, L2-normalised.')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
        ),
    ]
