from django.apps import AppConfig


class AnswersConfig(AppConfig):
    name = "answers"
    verbose_name = "Answers"

    def ready(self) -> None:
        from answers import checks  # noqa: F401  (registers the checks)
