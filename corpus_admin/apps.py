from django.apps import AppConfig


class CorpusAdminConfig(AppConfig):
    name = "corpus_admin"
    verbose_name = "Corpus"
