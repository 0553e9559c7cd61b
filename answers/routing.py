"""The websocket routes: the chat socket, and a clean refusal on every other path."""
from django.conf import settings
from django.urls import URLPattern, path, re_path

from answers.consumers import ChatConsumer, UnknownPathConsumer
from answers.services import GeneratorFactory, choose_generator


def websocket_urls(make_generator: GeneratorFactory, *, echo: bool = False) -> list[URLPattern]:
    """The routes, the chat answering with the generators `make_generator` makes; with `echo`, also the load
    test's ceiling at `ws/echo/` (answers/bench/echo.py), which production never mounts."""
    routes = [path("ws/chat/", ChatConsumer.as_asgi(make_generator=make_generator))]
    if echo:
        from answers.bench.echo import EchoConsumer  # imported only where mounted

        routes.append(path("ws/echo/", EchoConsumer.as_asgi()))
    routes.append(re_path(r"", UnknownPathConsumer.as_asgi()))  # last: any other path is refused cleanly
    return routes


# The site's: the configured generator, and the echo only when RAG_LOADTEST_ECHO says so.
websocket_urlpatterns = websocket_urls(choose_generator, echo=settings.RAG_LOADTEST_ECHO)
