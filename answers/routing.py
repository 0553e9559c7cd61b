"""The websocket routes: the chat socket, and a clean refusal on every other path."""
from django.urls import URLPattern, path, re_path

from answers.consumers import ChatConsumer, UnknownPathConsumer
from answers.services import GeneratorFactory, choose_generator


def websocket_urls(make_generator: GeneratorFactory) -> list[URLPattern]:
    """The routes, the chat answering with the generators `make_generator` makes."""
    return [
        path("ws/chat/", ChatConsumer.as_asgi(make_generator=make_generator)),
        re_path(r"", UnknownPathConsumer.as_asgi()),  # last: any other path is refused cleanly, not a "No route" 500
    ]


websocket_urlpatterns = websocket_urls(choose_generator)  # the site's: the configured generator
