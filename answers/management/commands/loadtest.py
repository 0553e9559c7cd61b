"""manage.py loadtest --url URL [--url URL2 ...] --clients C --questions Q [--json]: websocket clients asking demo
questions at once."""
import asyncio
import ipaddress
import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from answers.bench.load import (
    MAX_QUESTIONS,
    CeilingReport,
    LoadPlan,
    LoadReport,
    NotLoopback,
    ceiling_unreachable,
    loopback_target,
    run_load,
    run_with_ceiling,
)

MAX_CLIENTS = 1000


def _bounded(low: float, high: float, kind=int):
    def parse(raw: str):
        value = kind(raw)
        if not low <= value <= high:
            raise ValueError(f"must be between {low:g} and {high:g}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its error message
    return parse


def _loopback(raw: str) -> ipaddress.IPv4Address:
    address = ipaddress.IPv4Address(raw)
    if not address.is_loopback:
        raise ValueError(f"{raw} is not a loopback address")
    return address


_loopback.__name__ = "loopback address"


class Command(BaseCommand):
    help = (
        "Load-test a running site on this machine: C websocket clients each ask Q demo questions one after the "
        "other, all clients at once. Prints time to the first verified sentence and to the end of the answer "
        "(p50/p95/p99), errors and answers per second (connects counted), first against ws/echo/ (the stack's "
        "ceiling, RAG_LOADTEST_ECHO=1: the same plan, ten rounds merged) then the chat, with answers/s as a share "
        "of the ceiling. Exit status 1 if any question failed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", required=True, action="append",
            help="The site's root on loopback, e.g. http://127.0.0.1:8000; repeat it for several workers (clients "
            "are spread over them in turn).",
        )
        parser.add_argument("--clients", type=_bounded(1, MAX_CLIENTS), default=10, help="Concurrent clients.")
        parser.add_argument("--questions", type=_bounded(1, MAX_QUESTIONS), default=5, help="Questions per client.")
        parser.add_argument(
            "--timeout", type=_bounded(0.1, 600, float), default=30.0, help="Seconds one answer may take (30)."
        )
        parser.add_argument(
            "--deadline", type=_bounded(1, 3600, float), default=300.0, help="Seconds the whole run may take (300)."
        )
        parser.add_argument(
            "--one-visitor", action="store_true",
            help="All clients share one session: one visitor flooding from many sockets (limits apply to it).",
        )
        parser.add_argument(
            "--mint-sessions", action="store_true",
            help="Each socket presents a session id of its own (the one the page set, else a made-up one): one "
            "visitor minting sessions to escape the limits.",
        )
        parser.add_argument(
            "--source-address", type=_loopback, metavar="ADDRESS", default=None,
            help="Clients connect from this loopback address (e.g. 127.0.0.2; default: the system's, 127.0.0.1).",
        )
        parser.add_argument(
            "--spread-addresses", action="store_true",
            help="Client n connects from --source-address + n (127.0.0.2 + n without it), so the site's per-address "
            "limit sees each client as a visitor of its own.",
        )
        parser.add_argument(
            "--no-ceiling", action="store_true",
            help="Skip the ceiling: by default the same clients first ask ws/echo/ the same questions per connect, ten "
            "rounds (workers started with RAG_LOADTEST_ECHO=1), and answers/s is printed as a share of what that "
            "trivial consumer sustains.",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, **options) -> None:
        try:
            targets = tuple(loopback_target(url) for url in options["url"])
        except NotLoopback as error:
            raise CommandError(str(error)) from None
        plan = LoadPlan(
            targets=targets,
            clients=options["clients"],
            questions=options["questions"],
            timeout_s=options["timeout"],
            deadline_s=options["deadline"],
            one_visitor=options["one_visitor"],
            mint_sessions=options["mint_sessions"],
            source=options["source_address"],
            spread_sources=options["spread_addresses"],
        )
        last = plan.source_of(plan.clients - 1)
        if last is not None and not ipaddress.ip_address(last).is_loopback:
            raise CommandError(f"{plan.clients} addresses from {plan.source_of(0)} leave 127.0.0.0/8.")
        if plan.one_visitor and plan.mint_sessions:
            raise CommandError("--one-visitor shares one session; --mint-sessions gives each socket its own: pick one.")
        report: LoadReport | CeilingReport
        if options["no_ceiling"]:
            report = asyncio.run(run_load(plan))
            errors = report.as_json()["errors"]
        else:
            both = asyncio.run(run_with_ceiling(plan))
            if ceiling_unreachable(both.ceiling):
                raise CommandError(
                    "No client could open ws/echo/: start the workers with RAG_LOADTEST_ECHO=1 to measure the "
                    "ceiling, or pass --no-ceiling."
                )
            report, errors = both, both.errors
        self.stdout.write(json.dumps(report.as_json(), indent=2) if options["json"] else report.as_text())
        if errors:
            raise SystemExit(1)
