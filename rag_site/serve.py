"""daphne with a deadline for each request to arrive: `python -m rag_site.serve [daphne's arguments]`.

daphne's own timeouts start once a request has arrived whole (twisted reads the request line, the headers and the
body before daphne sees it), and twisted drops only a connection silent for 60 s, so a client sending a byte every
few seconds holds its connection for ever. Here a request must have arrived whole within RAG_REQUEST_DEADLINE_S
(120) of its first line, or it gets 408 and its connection is closed. A connection idle between requests is
twisted's 60 s matter; a websocket, once upgraded, is daphne's (pings and --websocket_timeout).
"""
import logging
import os
import sys
from collections.abc import Sequence

from daphne import server as daphne_server  # first: it installs the asyncio reactor before twisted's is imported
from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory, WebRequest
from django.conf import settings
from twisted.internet import reactor
from twisted.internet.base import DelayedCall

logger = logging.getLogger(__name__)

TOO_SLOW = b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class DeadlineRequest(WebRequest):
    """daphne's request, cut off when it has not arrived whole `deadline_s` after its first line."""

    deadline_s = 120.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # twisted declares its reactor's methods on zope interfaces, without `self`, which mypy misreads (there is no
        # mypy-zope plugin here); the reactor's callLater returns a DelayedCall.
        self._deadline: DelayedCall | None = reactor.callLater(
            self.deadline_s, self._arrived_too_slowly  # type: ignore[arg-type]
        )

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        self._cancel_deadline()
        super().requestReceived(command, path, version)

    def connectionLost(self, reason) -> None:
        self._cancel_deadline()
        super().connectionLost(reason)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None

    def _arrived_too_slowly(self) -> None:
        self._deadline = None
        logger.info("Closed a connection whose request had not arrived after %.0f s", self.deadline_s)
        self.channel.transport.write(TOO_SLOW)
        self.channel.transport.loseConnection()


class DeadlineHTTPFactory(HTTPFactory):
    """daphne's HTTP factory, making DeadlineRequests."""

    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = DeadlineRequest
        return protocol


def main(argv: Sequence[str] | None = None) -> None:
    """Run daphne's command line with the deadline in place."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rag_site.settings")
    DeadlineRequest.deadline_s = settings.RAG_REQUEST_DEADLINE_S
    daphne_server.HTTPFactory = DeadlineHTTPFactory  # daphne's Server.run builds its factory by this name
    CommandLineInterface().run(list(argv) if argv is not None else sys.argv[1:])


if __name__ == "__main__":
    main()
