from django.apps import AppConfig


class RagSiteConfig(AppConfig):
    """The project as an app, so that its system checks are registered wherever Django is set up."""

    name = "rag_site"
    verbose_name = "rag_site"

    def ready(self) -> None:
        from rag_site import checks  # noqa: F401  (registers the checks)
