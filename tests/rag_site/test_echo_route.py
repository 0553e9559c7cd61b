"""The load test's echo socket (ws/echo/) is mounted only when RAG_LOADTEST_ECHO is on: production never has it."""
import pytest
from channels.testing import WebsocketCommunicator

from answers.bench.echo import EchoConsumer
from answers.routing import websocket_urlpatterns, websocket_urls
from answers.services import choose_generator
from rag_site.asgi import application

UNKNOWN_PATH_CODE = 4404


def served(patterns) -> list[str]:
    return [str(pattern.pattern) for pattern in patterns if str(pattern.pattern)]


def test_the_site_routes_have_no_echo_by_default(settings):
    assert settings.RAG_LOADTEST_ECHO is False
    assert served(websocket_urlpatterns) == ["ws/chat/"]


def test_the_echo_is_mounted_before_the_catch_all_when_enabled():
    patterns = websocket_urls(choose_generator, echo=True)

    assert served(patterns) == ["ws/chat/", "ws/echo/"]
    assert patterns[1].callback.consumer_class is EchoConsumer
    assert str(patterns[-1].pattern) == ""  # the catch-all refusal stays last


@pytest.mark.asyncio
async def test_the_sites_application_refuses_ws_echo_like_any_unknown_path():
    communicator = WebsocketCommunicator(application, "/ws/echo/", headers=[(b"origin", b"http://localhost"),
                                                                            (b"host", b"localhost")])

    connected, code = await communicator.connect()

    assert (connected, code) == (False, UNKNOWN_PATH_CODE)
