"""The base of the commands that ask questions (`ask`, `evaluate`): where their generator factory comes from."""
from django.core.management.base import BaseCommand

from answers.services import GeneratorFactory, choose_generator


class AnsweringCommand(BaseCommand):
    """A command whose answers' generators `make_generator` makes: the site's configured one unless given."""

    def __init__(self, *args, make_generator: GeneratorFactory = choose_generator, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.make_generator = make_generator
