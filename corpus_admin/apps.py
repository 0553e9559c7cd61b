from django.apps import AppConfig


class CorpusAdminConfig(AppConfig):
    name = "corpus_admin"
    verbose_name = "Corpus"

    def ready(self) -> None:
        from corpus_admin import checks  # noqa: F401  (registers the checks)
