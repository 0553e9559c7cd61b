"""Websocket routes: the chat socket, and a clean refusal for every other path."""
import logging

import pytest
from channels.testing import WebsocketCommunicator

from rag_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.mark.parametrize("path", ["/ws/other/", "/", "/ws/chat/extra/", "/admin/"])
async def test_unknown_socket_path_is_refused_without_an_error_in_the_log(path, caplog):
    communicator = WebsocketCommunicator(application, path, headers=SITE)

    with caplog.at_level(logging.INFO):
        connected, code = await communicator.connect()

    assert (connected, code) == (False, 4404)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await communicator.disconnect()
