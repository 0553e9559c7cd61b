"""Parse and chunk uploads in a worker process with time and memory limits, off the request path (§2.5, §4).

One long-lived worker per process serves one file at a time over a pipe (a ParsePool runs several, for
parsing several files at once, each worker with the same limits). It is forked from a forkserver (safe
from a threaded server) that has already imported the parsers, so a fresh worker starts in well under a second.
A parse that runs past its time limit is killed, with any program it started (OCR runs tesseract: the worker
leads a process group of its own, and the whole group is killed); one that outgrows its memory limit fails with
MemoryError or dies. Either way only that file is rejected, with a reason naming the limit, and the next file gets
a fresh worker. Programs the worker runs inherit its memory limit.

Each worker's temporary files go in a folder of its own (TMPDIR and tempfile's folder, made by the parent): a worker
killed halfway through OCR cannot clean up pytesseract's files (the page image and tesseract's output), so the
parent removes the folder whenever the worker ends, killed or not.

The memory limit is RLIMIT_AS (address space), set by the worker on itself at start: its own virtual size once
the parsers and tiktoken's ranks are loaded (about 110 MB on Linux; 135 MB under daphne, whose script every
worker imports as its main module), plus the parse budget. The worker has one thread, so no per-thread malloc
arenas inflate its address space. RLIMIT_AS makes an over-budget allocation fail with MemoryError instead of
waking the OOM killer; RLIMIT_DATA is the fallback where RLIMIT_AS cannot be set.

Django-free: the caller reads the settings and passes the limits.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import logging
import multiprocessing
import os
import queue
import resource
import shutil
import signal
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Final

from corpus_admin import tokens
from corpus_admin.chunking import ChunkDraft, chunk_document
from corpus_admin.parsing import RejectedFile, parse_document

logger = logging.getLogger(__name__)

# What the worker runs for each file; tests pass their own "module:function" (the worker imports it).
DEFAULT_PARSER: Final = "corpus_admin.sandbox:chunk_file"
# Imported once by the forkserver, so every worker forked from it starts with them loaded.
_PRELOAD: Final = ["corpus_admin.parsing", "corpus_admin.chunking", "corpus_admin.sandbox"]
_START_TIMEOUT_S: Final = 60.0
_MB: Final = 1024 * 1024
_TOO_COMPLEX: Final = "the file may be malformed or too complex"
_LONG_SCAN: Final = ", or a scanned PDF with more pages than OCR reads in that time"


@dataclass(frozen=True)
class ChunkedFile:
    """A parsed and chunked file: what ingestion stores as a new version."""

    media_type: str
    title: str | None
    drafts: tuple[ChunkDraft, ...]


class ParserFailed(Exception):
    """The parser raised something other than a rejection: a bug to fix, not a bad file."""


def chunk_file(*, file_name: str, content: bytes, max_bytes: int, max_tokens: int, overlap_tokens: int) -> ChunkedFile:
    """Parse and chunk a file in this process, without limits: the worker's default parser."""
    document = parse_document(file_name=file_name, content=content, max_bytes=max_bytes)
    drafts = chunk_document(document, max_tokens=max_tokens, overlap_tokens=overlap_tokens)
    return ChunkedFile(media_type=document.media_type, title=document.title, drafts=drafts)


@dataclass(frozen=True)
class ParseOptions:
    """How a file is parsed and chunked: the parser's caps, the worker's limits (none with `isolated` off: the parser
    runs in the calling process) and the parser, "module:function", taking chunk_file's arguments."""

    max_bytes: int
    max_tokens: int
    overlap_tokens: int
    timeout_s: float
    memory_mb: int
    isolated: bool = True
    parser: str = DEFAULT_PARSER


def parse_and_chunk(*, file_name: str, content: bytes, options: ParseOptions) -> ChunkedFile:
    """Parse and chunk a file in the worker process within the limits, or raise RejectedFile with the reason."""
    return _parse(file_name, content, options, _locked_slot)


def stop_worker() -> None:
    """Stop this process's parse worker, if one is running; the next parse starts a fresh one."""
    _slot.stop()


class ParsePool:
    """Several parse workers, each with the same time and memory limits as the one worker of parse_and_chunk, for
    parsing several files at once from threads: each call takes a free worker, and waits when all are busy.

    Use it as a context manager; its workers stop when it closes. A file that breaks a limit costs only its own
    worker, as in parse_and_chunk. Memory: each worker may use the whole budget, so `size` workers may use `size`
    times it together.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a parse pool needs at least one worker")
        self._free: queue.SimpleQueue[_Slot] = queue.SimpleQueue()
        self._slots = [_Slot() for _ in range(size)]
        for slot in self._slots:
            self._free.put(slot)

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def parse_and_chunk(self, *, file_name: str, content: bytes, options: ParseOptions) -> ChunkedFile:
        """parse_and_chunk in one of the pool's workers: the same arguments and outcomes."""
        return _parse(file_name, content, options, self._free_slot)

    @contextlib.contextmanager
    def _free_slot(self) -> Iterator[_Slot]:
        """A free worker's slot for one file, given back after it (waits while all are busy)."""
        slot = self._free.get()
        try:
            yield slot
        finally:
            self._free.put(slot)

    def close(self) -> None:
        """Stop every worker of the pool."""
        for slot in self._slots:
            slot.stop()


# --- the parent's side ------------------------------------------------------------------------------------


class _Worker:
    """A running worker process and the parent's end of its pipe."""

    def __init__(self, *, memory_mb: int) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)  # takes effect when the forkserver first starts
        self.memory_mb = memory_mb
        self.owner_pid = os.getpid()
        self.scratch = tempfile.mkdtemp(prefix="rag-parse-")  # the worker's temporary files, removed when it ends
        self.conn, child_conn = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(child_conn, memory_mb, self.scratch), name="rag-parse-worker", daemon=True
        )
        try:
            self.process.start()
        except BaseException:
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise
        child_conn.close()  # only the worker holds its end, so its death reads as EOF here
        try:
            if not self.conn.poll(_START_TIMEOUT_S):
                raise ParserFailed(f"the parse worker did not start within {_START_TIMEOUT_S:g} s")
            _, baseline_mb, limit = self.conn.recv()
        except (EOFError, OSError) as error:
            self.kill()
            raise ParserFailed(f"the parse worker failed to start ({type(error).__name__})") from None
        except ParserFailed:
            self.kill()
            raise
        logger.info("Parse worker %s started: %s MB at rest, limit %s", self.process.pid, baseline_mb, limit)

    def usable(self, *, memory_mb: int) -> bool:
        """Whether this worker can take the next file under this memory budget."""
        return self.owner_pid == os.getpid() and self.memory_mb == memory_mb and self.process.is_alive()

    def kill(self) -> int | None:
        """Kill the worker at once and return its exit code."""
        if self.owner_pid != os.getpid():
            return None  # inherited through a fork: the worker belongs to the parent process
        try:
            if self.process.pid is not None and self.process.exitcode is None:  # not reaped: its pid names its group
                # The worker leads a process group of its own: the programs it runs (tesseract) die with it.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, signal.SIGKILL)
            self.process.kill()
            self.process.join(5)
            self.conn.close()
        finally:  # what a killed parse left (an OCR page image, tesseract's output) goes with its worker
            shutil.rmtree(self.scratch, ignore_errors=True)
        return self.process.exitcode

    def stop(self) -> None:
        """Ask the worker to finish and wait briefly; kill it if it does not."""
        if self.owner_pid != os.getpid():
            return
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(2)
        self.kill()


class _Slot:
    """Where one worker runs: the worker, started on first use and again after a file killed it."""

    def __init__(self) -> None:
        self.worker: _Worker | None = None

    def run(self, parser: str, request: dict, *, timeout_s: float, memory_mb: int) -> ChunkedFile:
        """Send one file to the worker and turn its reply, its silence or its death into a result or a reason."""
        name = request["file_name"]
        if self.worker is None or not self.worker.usable(memory_mb=memory_mb):
            if self.worker is not None:
                self.worker.kill()
            self.worker = _Worker(memory_mb=memory_mb)
        worker = self.worker
        try:
            worker.conn.send((parser, request))
            finished = worker.conn.poll(timeout_s)
            reply = worker.conn.recv() if finished else None
        except (EOFError, OSError):
            reply = ("died",)
        if reply is None:
            self._discard(worker)
            logger.warning("Parsing %s took longer than %g s; the parse worker was killed", name, timeout_s)
            scan = _LONG_SCAN if name.lower().endswith(".pdf") else ""
            raise RejectedFile(name, f"parsing took longer than {timeout_s:g} s; {_TOO_COMPLEX}{scan}")
        kind = reply[0]
        if kind == "ok":
            _, media_type, title, drafts = reply
            return ChunkedFile(media_type=media_type, title=title, drafts=drafts)
        if kind == "rejected":
            raise RejectedFile(reply[1], reply[2])
        if kind == "error":
            logger.error("The parser failed on %s in the parse worker:\n%s", name, reply[2])
            raise ParserFailed(reply[1])
        # "memory" (MemoryError, after which the worker exits) or "died" (killed by the OOM killer or crashed)
        exitcode = self._discard(worker)
        logger.warning("Parsing %s ran out of memory (%s; worker exit code %s)", name, kind, exitcode)
        raise RejectedFile(name, f"parsing needed more than {memory_mb} MB of memory; {_TOO_COMPLEX}")

    def stop(self) -> None:
        """Stop the worker, if one is running; the next file starts a fresh one."""
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.stop()

    def _discard(self, worker: _Worker) -> int | None:
        """Kill a worker that failed a file so the next file starts a fresh one."""
        if self.worker is worker:
            self.worker = None
        return worker.kill()


_lock = threading.Lock()
_slot = _Slot()  # parse_and_chunk's worker


@contextlib.contextmanager
def _locked_slot() -> Iterator[_Slot]:
    """parse_and_chunk's one worker, for one file at a time."""
    with _lock:
        yield _slot


def _parse(
    file_name: str,
    content: bytes,
    options: ParseOptions,
    take_slot: Callable[[], contextlib.AbstractContextManager[_Slot]],
) -> ChunkedFile:
    """Run the parser on one file: in a worker of the slot taken, or in this process when not isolated."""
    request = {"file_name": file_name, "content": content, "max_bytes": options.max_bytes,
               "max_tokens": options.max_tokens, "overlap_tokens": options.overlap_tokens}
    if not options.isolated:
        return _resolve(options.parser)(**request)
    with take_slot() as slot:
        return slot.run(options.parser, request, timeout_s=options.timeout_s, memory_mb=options.memory_mb)


atexit.register(stop_worker)


# --- the worker's side ------------------------------------------------------------------------------------


def _serve(conn: Connection, memory_mb: int, scratch: str) -> None:
    """Worker main: limit this process's memory, then parse files until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it kills us at exit
    os.setpgid(0, 0)  # a group of our own, so that killing it at the time limit kills our children too
    os.environ["TMPDIR"] = tempfile.tempdir = scratch  # ours and our programs' temporary files: the parent removes it
    # The parsers' own warnings (pypdf: "EOF marker not found") go to stderr, marked as ours.
    logging.basicConfig(level=logging.WARNING, format="parse worker %(process)d: %(levelname)s %(name)s: %(message)s")
    tokens.count_tokens("load the encoding")  # its ranks belong in the baseline, not the budget
    baseline = _address_space()
    limit = _limit_memory(baseline + memory_mb * _MB) if baseline is not None else "none (size unknown)"
    conn.send(("ready", baseline // _MB if baseline is not None else None, limit))
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        parser, request = message
        try:
            reply = _parse_one(parser, request)
        except MemoryError:
            reply = ("memory",)
        try:
            conn.send(reply)
        except MemoryError:
            conn.send(("memory",))
            return
        if reply[0] == "memory":
            return  # a heap that hit the limit once is left fragmented; the next file gets a fresh worker


def _parse_one(parser: str, request: dict) -> tuple:
    """Run the parser on one file and describe the outcome as a picklable reply."""
    try:
        chunked = _resolve(parser)(**request)
    except RejectedFile as rejected:
        return ("rejected", rejected.file_name, rejected.reason)
    except MemoryError:
        raise
    except Exception as error:  # reported to the parent, which logs the traceback and fails the ingest
        return ("error", f"{type(error).__name__}: {error}"[:300], traceback.format_exc())
    return ("ok", chunked.media_type, chunked.title, chunked.drafts)


def _resolve(parser: str) -> Callable[..., ChunkedFile]:
    """Import the parser named "module:function"."""
    module, _, function = parser.partition(":")
    return getattr(importlib.import_module(module), function)


def _address_space() -> int | None:
    """This process's virtual size in bytes, or None where /proc is unavailable."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _limit_memory(limit: int) -> str:
    """Cap this process's memory at `limit` bytes; return which limit was set."""
    for name in ("RLIMIT_AS", "RLIMIT_DATA"):
        which = getattr(resource, name, None)
        if which is None:
            continue
        _, hard = resource.getrlimit(which)
        try:
            resource.setrlimit(which, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
        except (ValueError, OSError):
            continue
        return f"{name} {limit // _MB} MB"
    return "none (setrlimit refused)"
