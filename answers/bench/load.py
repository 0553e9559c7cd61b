"""Load test: websocket clients asking questions concurrently against a running site on loopback, timed per answer.

Each client is what a visitor's page does: GET `/` (keeping any cookie it sets), open `/ws/chat/` with the site's
Origin and those cookies, then ask its questions one after the other, reading the HTML fragments the server pushes.
A flood is one visitor on many sockets: sharing one session (`one_visitor`), or each socket presenting a session id
of its own (`mint_sessions`: the one the page set, else a made-up one). Clients may connect from a loopback address
of their choice, one each if spread (`source`, `spread_sources`): the site limits anonymous visitors by address.
Every client first connects, then all start asking together, so no first answer waits behind another's connect.
Connects count: the run's wall time starts before the first client connects, because a visitor's page, session and
handshake are work the worker does for its answers (`asking_s` is the time from the start signal only).
Each answer has a timeout and the whole run a deadline; an answer still running at the deadline counts as unfinished.
"""
import asyncio
import http.client
import ipaddress
import json
import re
import secrets
import socket
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from answers.evaluation import metrics

# Questions of the demo corpus that the extractive generator answers (corpus_admin/demo/README.md).
DEMO_QUESTIONS = (
    "How long does a refund take to process?",
    "How long are deleted files kept in the trash?",
    "How long does the free trial last?",
    "What is the API rate limit?",
    "What status code does the API return for an invalid token?",
    "What is the maximum number of members on the Team plan?",
    "How long is version history kept on the Business plan?",
    "When do share links expire by default?",
    "How long are two-factor codes valid?",
    "What file size does the desktop sync client support?",
    "How long must a password be?",
    "How often are backups taken?",
    "What is the uptime SLA?",
    "When are invoices issued?",
)

_EVENT = re.compile(r'data-event="([a-z]+)"')
_DONE_STATUS = re.compile(r'class="status status-([a-z]+)"[^>]*data-event="done"')
_NOTICE = re.compile(r'<div id="notice"[^>]*>(.*?)</div>', re.S)
_TEXT = re.compile(r"<[^>]+>")

ANSWERED_STATUSES = ("answered", "refused")

MAX_QUESTIONS = 100  # per client, as manage.py loadtest bounds it

SPREAD_FROM = ipaddress.IPv4Address("127.0.0.2")  # 127.0.0.1 stays the address of clients that do not pick one


class NotLoopback(ValueError):
    """The URL is not a loopback address; the load test never leaves the machine."""


@dataclass(frozen=True)
class Target:
    """The site's HTTP root, its websocket URL and the Origin the page would send."""

    http_url: str
    ws_url: str
    origin: str
    echo_url: str = ""  # the stack's ceiling (answers/bench/echo.py), mounted only with RAG_LOADTEST_ECHO


def loopback_target(url: str) -> Target:
    """The target for a URL on this machine (127.0.0.0/8, ::1 or localhost); NotLoopback for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotLoopback(f"{url!r} is not an http:// or https:// URL.")
    if not _is_loopback(parts.hostname):
        raise NotLoopback(
            f"{parts.hostname} is not a loopback address: the load test only runs against this machine "
            "(127.0.0.1, ::1 or localhost)."
        )
    origin = f"{parts.scheme}://{parts.netloc}"
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    return Target(
        http_url=f"{origin}/", ws_url=f"{ws_scheme}://{parts.netloc}/ws/chat/", origin=origin,
        echo_url=f"{ws_scheme}://{parts.netloc}/ws/echo/",
    )


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if host != "localhost":
        return False
    try:  # localhost is loopback only if it resolves there
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return bool(addresses) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses)


@dataclass(frozen=True)
class LoadPlan:
    """How many clients ask how many questions each, and how long anything may take."""

    targets: tuple[Target, ...]  # several workers: client n asks targets[n % len], as a round-robin proxy would
    clients: int
    questions: int
    timeout_s: float = 30.0
    deadline_s: float = 300.0
    pool: tuple[str, ...] = DEMO_QUESTIONS
    one_visitor: bool = False  # every client shares one session: one user flooding from many sockets
    mint_sessions: bool = False  # every socket presents a session id of its own: a flooder minting sessions
    source: ipaddress.IPv4Address | None = None  # the loopback address clients connect from (None: the OS picks)
    spread_sources: bool = False  # client n connects from source + n (from 127.0.0.2 without a source)
    echo: bool = False  # ask the echo consumer (the stack's ceiling) instead of the chat

    def ws_url(self, client: int) -> str:
        """The socket a client opens: the chat's, or the echo's when measuring the ceiling."""
        target = self.target(client)
        return target.echo_url if self.echo else target.ws_url

    def target(self, client: int) -> Target:
        """The worker a client talks to."""
        return self.targets[client % len(self.targets)]

    def source_of(self, client: int) -> str | None:
        """The loopback address a client connects from: the site limits anonymous visitors by address."""
        if not self.spread_sources:
            return None if self.source is None else str(self.source)
        return str((self.source or SPREAD_FROM) + client)

    def question(self, client: int, turn: int) -> str:
        """The question a client asks at a turn: the pool in turn, each client starting elsewhere."""
        return self.pool[(client * self.questions + turn) % len(self.pool)]


@dataclass(frozen=True)
class AnswerTiming:
    """One question's outcome and, when reached, its times to the first sentence and to the end."""

    outcome: str  # answered, refused, or an error: failed, incomplete, notice, timeout, closed, connect, unfinished
    first_sentence_s: float | None = None
    done_s: float | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the server answered or refused, as the demo questions expect."""
        return self.outcome in ANSWERED_STATUSES


@dataclass
class _Client:
    plan: LoadPlan
    number: int
    start: asyncio.Event
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # connected, or failed to
    timings: list[AnswerTiming] = field(default_factory=list)
    connect_s: float | None = None
    cookie: str = ""

    async def run(self) -> None:
        began = time.perf_counter()
        try:
            if not self.cookie:
                url, source = self.plan.target(self.number).http_url, self.plan.source_of(self.number)
                self.cookie = await asyncio.to_thread(session_cookie, url, self.plan.timeout_s, source)
                if self.plan.mint_sessions and "sessionid=" not in self.cookie:
                    self.cookie = "; ".join(filter(None, [self.cookie, f"sessionid={secrets.token_hex(16)}"]))
            socket_ = await self._connect()
        except Exception as error:  # noqa: BLE001  (any failure to connect is this client's result)
            self.timings = [AnswerTiming("connect", detail=_describe(error))] * self.plan.questions
            self.ready.set()
            return
        self.connect_s = time.perf_counter() - began
        self.ready.set()
        await self.start.wait()
        try:
            for turn in range(self.plan.questions):
                timing = await self._ask(socket_, self.plan.question(self.number, turn))
                self.timings.append(timing)
                if timing.outcome == "timeout":  # the old answer may still be streaming: start afresh
                    await socket_.close()
                    socket_ = await self._connect()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001  (the socket closed under us: the rest of its questions are lost)
            missing = self.plan.questions - len(self.timings)
            self.timings.extend([AnswerTiming("closed", detail=_describe(error))] * missing)
        finally:
            await socket_.close()

    async def _connect(self) -> ClientConnection:
        source = self.plan.source_of(self.number)
        return await connect(
            self.plan.ws_url(self.number),
            origin=Origin(self.plan.target(self.number).origin),
            additional_headers={"Cookie": self.cookie} if self.cookie else None,
            proxy=None,  # loopback only, whatever the environment's proxy variables say
            compression=None,
            open_timeout=self.plan.timeout_s,
            max_size=2**22,
            local_addr=None if source is None else (source, 0),
        )

    async def _ask(self, socket_: ClientConnection, question: str) -> AnswerTiming:
        sent = time.perf_counter()
        first: float | None = None
        await socket_.send(json.dumps({"question": question}))
        try:
            async with asyncio.timeout(self.plan.timeout_s):
                while True:
                    message = await socket_.recv()
                    if isinstance(message, bytes):
                        message = message.decode("utf-8", "replace")
                    frame = read_frame(message)
                    elapsed = time.perf_counter() - sent
                    if "sentence" in frame.events and first is None:
                        first = elapsed
                    if frame.notice:
                        return AnswerTiming("notice", first, None, frame.notice)
                    if "done" in frame.events:
                        return AnswerTiming(frame.status or "done", first, elapsed)
        except TimeoutError:
            return AnswerTiming("timeout", first, None, f"no end of answer within {self.plan.timeout_s:g} s")


@dataclass(frozen=True)
class Frame:
    """What one pushed frame holds: its events in order, the end's status if it ends the answer, any notice text."""

    events: tuple[str, ...]
    status: str = ""
    notice: str = ""


def read_frame(html: str) -> Frame:
    """Read a frame as the page would: one or more fragments, each swapped by its `hx-swap-oob`.

    The server clears old notices with an empty `#notice` at the start of each question: only a non-empty one
    (busy, rate limited, failed) is a notice. A turn's error is followed by its done, which says failed or
    incomplete, so it is not an event of its own here.
    """
    notice = " ".join(_plain(text) for text in _NOTICE.findall(html)).strip()
    without_notices = _NOTICE.sub("", html)
    events = tuple(kind for kind in _EVENT.findall(without_notices) if kind != "error")
    status = _DONE_STATUS.search(without_notices)
    return Frame(events=events, status=status.group(1) if status else "", notice=notice)


def session_cookie(url: str, timeout_s: float, source: str | None = None) -> str:
    """GET the chat page (from `source` if given) and return the cookies it sets as a Cookie header."""
    parts = urlsplit(url)
    if parts.hostname is None:
        raise ValueError(f"no host in {url!r}")
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    # Straight to the address, never through a proxy, from the source address the socket will use too.
    connection = kind(parts.hostname, parts.port, timeout=timeout_s, source_address=(source, 0) if source else None)
    try:
        connection.request("GET", parts.path or "/", headers={"Accept": "text/html"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {url} answered HTTP {response.status}")
        jar = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or ():
            jar.load(header)
    finally:
        connection.close()
    return "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items())


def _plain(html: str) -> str:
    return " ".join(_TEXT.sub(" ", html).split())[:200]


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:200]


@dataclass(frozen=True)
class LoadReport:
    """The figures of one run."""

    plan: LoadPlan
    timings: tuple[AnswerTiming, ...]
    connect_s: tuple[float, ...]
    wall_s: float  # from before the first connect to the last answer: connects count
    asking_s: float = 0.0  # from the moment every client had connected (or failed to) to the last answer
    rounds: int = 1  # runs of the plan merged into this report (merge_rounds)

    def as_json(self) -> dict:
        """The figures as one JSON object (times in milliseconds)."""
        first = [t.first_sentence_s for t in self.timings if t.first_sentence_s is not None and t.ok]
        done = [t.done_s for t in self.timings if t.done_s is not None and t.ok]
        outcomes = Counter(t.outcome for t in self.timings)
        completed = sum(outcomes[s] for s in ANSWERED_STATUSES)
        errors = len(self.timings) - completed
        return {
            "url": " ".join(target.http_url for target in self.plan.targets),
            "clients": self.plan.clients,
            "questions_per_client": self.plan.questions,
            "rounds": self.rounds,
            "asked": len(self.timings) - outcomes["connect"] - outcomes["closed"] - outcomes["unfinished"],
            "answered": outcomes["answered"],
            "refused": outcomes["refused"],
            "errors": errors,
            "error_kinds": {k: v for k, v in sorted(outcomes.items()) if k not in ANSWERED_STATUSES},
            "error_examples": sorted({t.detail for t in self.timings if not t.ok and t.detail})[:5],
            "first_sentence_p50_ms": _ms(percentile(first, 50)),
            "first_sentence_p95_ms": _ms(percentile(first, 95)),
            "first_sentence_p99_ms": _ms(percentile(first, 99)),
            "done_p50_ms": _ms(percentile(done, 50)),
            "done_p95_ms": _ms(percentile(done, 95)),
            "done_p99_ms": _ms(percentile(done, 99)),
            "connect_p95_ms": _ms(percentile(list(self.connect_s), 95)),
            "wall_s": round(self.wall_s, 3),
            "asking_s": round(self.asking_s, 3),
            "answers_per_s": round(completed / self.wall_s, 2) if self.wall_s > 0 else 0.0,
            "asking_answers_per_s": round(completed / self.asking_s, 2) if self.asking_s > 0 else 0.0,
        }

    def as_text(self) -> str:
        """The figures as lines for a terminal."""
        data = self.as_json()
        return "\n".join(
            [
                f"{data['clients']} clients x {data['questions_per_client']} questions against {data['url']}"
                + (f", {data['rounds']} rounds" if data["rounds"] > 1 else ""),
                f"  answered {data['answered']}, refused {data['refused']}, errors {data['errors']}"
                + (f" {data['error_kinds']}" if data["errors"] else ""),
                f"  first verified sentence  p50 {data['first_sentence_p50_ms']} ms  "
                f"p95 {data['first_sentence_p95_ms']} ms  p99 {data['first_sentence_p99_ms']} ms",
                f"  end of answer            p50 {data['done_p50_ms']} ms  "
                f"p95 {data['done_p95_ms']} ms  p99 {data['done_p99_ms']} ms",
                f"  {data['answers_per_s']} answers/s over {data['wall_s']} s, connects counted (connecting: p95 "
                f"{data['connect_p95_ms']} ms; {data['asking_answers_per_s']} answers/s over the {data['asking_s']} s "
                "after every client connected)",
                *(f"  e.g. {example}" for example in data["error_examples"]),
            ]
        )


@dataclass(frozen=True)
class CeilingReport:
    """Real answers beside the stack's ceiling, measured in the same run against the same workers."""

    ceiling: LoadReport
    answers: LoadReport

    @property
    def share(self) -> float | None:
        """Answers per second as a share of the ceiling's."""
        return share_of_ceiling(self.answers.as_json()["answers_per_s"], self.ceiling.as_json()["answers_per_s"])

    @property
    def asking_share(self) -> float | None:
        """The share over the time after every client had connected, connects left out of both sides."""
        return share_of_ceiling(
            self.answers.as_json()["asking_answers_per_s"], self.ceiling.as_json()["asking_answers_per_s"]
        )

    @property
    def errors(self) -> int:
        """Failed questions of both runs."""
        return self.ceiling.as_json()["errors"] + self.answers.as_json()["errors"]

    def as_json(self) -> dict:
        """Both runs' figures and the share."""
        return {
            "ceiling": self.ceiling.as_json(), "answers": self.answers.as_json(), "share_of_ceiling": self.share,
            "asking_share_of_ceiling": self.asking_share,
        }

    def as_text(self) -> str:
        """Both runs as terminal lines, then the share."""
        ceiling, answers = self.ceiling.as_json(), self.answers.as_json()
        share = "n/a" if self.share is None else f"{self.share:.3f}"
        asking = "n/a" if self.asking_share is None else f"{self.asking_share:.3f}"
        return "\n".join(
            [
                "ceiling (ws/echo/: a one-sentence answer's three fixed frames per question, same daphne, middleware "
                f"and sessions; the answers' plan, {CEILING_ROUNDS} rounds merged):",
                self.ceiling.as_text(),
                "answers (ws/chat/):",
                self.answers.as_text(),
                f"share of the ceiling: {share} ({answers['answers_per_s']} / {ceiling['answers_per_s']} answers/s), "
                f"first sentence p50 {answers['first_sentence_p50_ms']} ms, p95 {answers['first_sentence_p95_ms']} "
                f"ms, errors {answers['errors']} (connects counted; {asking} after every client connected)",
            ]
        )


def share_of_ceiling(answers_per_s: float, ceiling_per_s: float) -> float | None:
    """answers_per_s / ceiling_per_s to three places; None when the ceiling measured nothing."""
    if ceiling_per_s <= 0:
        return None
    return round(answers_per_s / ceiling_per_s, 3)


def ceiling_unreachable(report: LoadReport) -> bool:
    """Whether no client could open the echo socket at all (the workers run without RAG_LOADTEST_ECHO)."""
    return bool(report.timings) and all(t.outcome == "connect" for t in report.timings)


CEILING_ROUNDS = 10  # the echo answers in well under a second: ten rounds of the same plan keep its rate steady

Runner = Callable[[LoadPlan], Awaitable[LoadReport]]


def ceiling_plans(plan: LoadPlan) -> tuple[LoadPlan, ...]:
    """The ceiling's rounds: the real run's plan against ws/echo/, CEILING_ROUNDS times over.

    The same clients, questions per connect and connect path (page, session, handshake) as the answers, so a
    connect weighs on an echo exactly as on an answer; more rounds, not more questions per connect, make it last.
    """
    return (replace(plan, echo=True),) * CEILING_ROUNDS


def merge_rounds(reports: Sequence[LoadReport]) -> LoadReport:
    """Several rounds of one plan as one report: their timings and connects concatenated, their times summed."""
    if not reports:
        raise ValueError("no rounds to merge")
    return LoadReport(
        plan=reports[0].plan,
        timings=tuple(t for r in reports for t in r.timings),
        connect_s=tuple(c for r in reports for c in r.connect_s),
        wall_s=sum(r.wall_s for r in reports),
        asking_s=sum(r.asking_s for r in reports),
        rounds=sum(r.rounds for r in reports),
    )


async def run_with_ceiling(plan: LoadPlan, run: Runner | None = None) -> CeilingReport:
    """The ceiling's rounds, then the real answers, with the same clients against the same workers (`run`: how one
    plan is run, `run_load` unless a test passes another)."""
    run = run or run_load
    rounds: list[LoadReport] = []
    for echo_plan in ceiling_plans(plan):
        rounds.append(await run(echo_plan))
        if ceiling_unreachable(rounds[-1]):
            return CeilingReport(ceiling=rounds[-1], answers=rounds[-1])
    return CeilingReport(ceiling=merge_rounds(rounds), answers=await run(replace(plan, echo=False)))


def percentile(values: list[float], share: float) -> float | None:
    """The nearest-rank percentile (share in 0..100) of the values, or None when there are none (JSON null)."""
    return metrics.percentile(values, share) if values else None


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


async def run_load(plan: LoadPlan) -> LoadReport:
    """Connect every client, then let them all ask; stop at the deadline whatever is still running."""
    connecting = time.perf_counter()
    start = asyncio.Event()
    clients = [_Client(plan, n, start) for n in range(plan.clients)]
    if plan.one_visitor:
        shared = await asyncio.to_thread(session_cookie, plan.targets[0].http_url, plan.timeout_s, plan.source_of(0))
        for client in clients:
            client.cookie = shared
    loop = asyncio.get_running_loop()
    deadline = loop.time() + plan.deadline_s
    tasks = [asyncio.create_task(client.run()) for client in clients]
    # Everyone connects (or fails to) before the first question, so no answer's times include another's connect;
    # the wall time counts both (asking_s the answers alone).
    connected = [asyncio.create_task(client.ready.wait()) for client in clients]
    await asyncio.wait(connected, timeout=max(0.0, deadline - loop.time()))
    for waiter in connected:
        waiter.cancel()
    began = time.perf_counter()
    start.set()
    _, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - loop.time()))
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    ended = time.perf_counter()
    timings: list[AnswerTiming] = []
    for client in clients:
        timings.extend(client.timings)
        missing = plan.questions - len(client.timings)
        timings.extend([AnswerTiming("unfinished", detail="still running at the deadline")] * missing)
    return LoadReport(
        plan=plan,
        timings=tuple(timings),
        connect_s=tuple(c.connect_s for c in clients if c.connect_s is not None),
        wall_s=ended - connecting,
        asking_s=ended - began,
    )

