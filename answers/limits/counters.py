"""Shared counters for the question limits: Redis when the site has one (every worker adds up), else this process.

Each call is one atomic step and, on Redis, one round trip made on the event loop itself: a question's limits cost
two round trips and no thread hops, its admission (the rates and the caller's slot, `admit`) and the slot's return
(Django's cache API would take seven, each in a thread of its own); a socket's open and close one each, whatever
slots they count (`take_slots`, `give_slots`).
"""
import asyncio
import contextlib
import functools
import logging
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Protocol

from django.conf import settings

from answers.outages import ServiceUnavailable

logger = logging.getLogger(__name__)

# Count a question in each counter in turn (the caller, their address, the site), stopping after the first that is
# over its limit: only a question within the earlier limits is counted in the later ones, so one flooder cannot use
# up everybody's allowance. KEYS: the counters; ARGV[1]: their expiry; ARGV[i + 1]: KEYS[i]'s limit (0: none).
# Returns each counter's count, 0 where the question was not counted.
_RATE_SCRIPT = """
local counts = {}
for i = 1, #KEYS do counts[i] = 0 end
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIRE', key, ARGV[1]) end
  counts[i] = count
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 and count > limit then break end
end
return counts
"""
# Take a slot unless the holder has `limit` already (0: no limit); a refused take leaves the count as it was.
# A successful take renews the expiry; a refused one does not, so a crashed worker's slots lapse even while their
# caller keeps retrying.
_TAKE_SCRIPT = """
local held = redis.call('INCR', KEYS[1])
if tonumber(ARGV[2]) > 0 and held > tonumber(ARGV[2]) then redis.call('DECR', KEYS[1]); return 0 end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return held
"""
_GIVE_SCRIPT = """
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""
# Take one count back from each counter count_rate counted; DECR keeps a counter's expiry. A counter that has lapsed
# is left lapsed: a DECR would bring it back as -1 with no expiry at all.
_UNCOUNT_SCRIPT = """
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 0
"""

# A question's admission in one round trip: the rate script over KEYS[1..n-1] (ARGV[1]: their expiry, ARGV[i + 1]:
# KEYS[i]'s limit), then, only if every counter was within its limit, the take script on KEYS[n] (ARGV[n + 1]: its
# expiry, ARGV[n + 2]: its limit). Returns the counts, then 1 if the slot was taken, 0 if refused or not tried.
_ADMIT_SCRIPT = """
local n = #KEYS - 1
local counts = {}
for i = 1, n do counts[i] = 0 end
local within = true
for i = 1, n do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('EXPIRE', KEYS[i], ARGV[1]) end
  counts[i] = count
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 and count > limit then within = false; break end
end
local taken = 0
if within then
  local held = redis.call('INCR', KEYS[n + 1])
  local slot_limit = tonumber(ARGV[n + 3])
  if slot_limit > 0 and held > slot_limit then
    redis.call('DECR', KEYS[n + 1])
  else
    redis.call('EXPIRE', KEYS[n + 1], ARGV[n + 2])
    taken = 1
  end
end
counts[n + 1] = taken
return counts
"""

# Take a slot in each of KEYS in turn, as the take script does (ARGV[1]: their expiry, ARGV[i + 1]: KEYS[i]'s limit,
# 0: none), all or none: at the first that is full, the slots taken before it are given back. Returns 0 when all
# were taken, else the index (from 1) of the full one.
_TAKE_ALL_SCRIPT = """
for i, key in ipairs(KEYS) do
  local held = redis.call('INCR', key)
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 and held > limit then
    for j = 1, i do redis.call('DECR', KEYS[j]) end
    return i
  end
  redis.call('EXPIRE', key, ARGV[1])
end
return 0
"""

_SCRIPTS = {
    "rate": _RATE_SCRIPT, "take": _TAKE_SCRIPT, "give": _GIVE_SCRIPT, "uncount": _UNCOUNT_SCRIPT,
    "admit": _ADMIT_SCRIPT, "take_all": _TAKE_ALL_SCRIPT,
}


class Counters(Protocol):
    """The atomic steps the limits need."""

    async def count_rate(self, counters: Sequence[tuple[str, int]], *, ttl_s: int) -> tuple[int, ...]:
        """Count a question in each (key, limit) in turn until one is over its limit; the counts, 0 if not counted."""

    async def admit(
        self, counters: Sequence[tuple[str, int]], slot: str, *, rate_ttl_s: int, slot_limit: int, slot_ttl_s: int,
    ) -> tuple[tuple[int, ...], bool]:
        """count_rate, then take_slot only if every counter was within its limit, in one step: the counts and
        whether the slot was taken."""

    async def uncount_rate(self, keys: Sequence[str]) -> None:
        """Take back one count that count_rate made in each of `keys`, in one step (never below zero)."""

    async def take_slot(self, key: str, *, limit: int, ttl_s: int) -> bool:
        """Take one of at most `limit` slots (0: unlimited); False when all are taken."""

    async def give_slot(self, key: str) -> None:
        """Give a taken slot back."""

    async def take_slots(self, slots: Sequence[tuple[str, int]], *, ttl_s: int) -> int | None:
        """take_slot for each (key, limit) in turn, all or none, in one step: None when all were taken, else the
        position of the first that was full (the ones before it are given back)."""

    async def give_slots(self, keys: Sequence[str]) -> None:
        """give_slot for each of `keys`, in one step."""


# A dead Redis must not hold a question for long: connect within 1 s, a reply within 2 s, and one retry, of a failed
# connection only (after a restart the pooled connection is stale and the retry reconnects), where redis-py would
# retry ten times with backoff.
CONNECT_TIMEOUT_S = 1.0
REPLY_TIMEOUT_S = 2.0
MAX_CONNECTIONS = 200  # per event loop: 100 sockets each asking at once must not wait for one (a busy loop reads late)
# A replaced client is closed after its last scripts can have ended: a wait for a connection, a connect, a reply.
RETIRE_AFTER_S = 2 * REPLY_TIMEOUT_S + CONNECT_TIMEOUT_S + 1.0


def _close_later(client) -> None:
    """Close a replaced client in a task of its own (call_later runs plain callbacks)."""
    task = asyncio.ensure_future(_close_quietly(client))
    _closing.add(task)
    task.add_done_callback(_closing.discard)


async def _close_quietly(client) -> None:
    with contextlib.suppress(Exception):
        await client.aclose()


_closing: set[asyncio.Future] = set()  # closing tasks, kept referenced until they end


class RedisCounters:
    """Counters in Redis, shared by every worker; one client per event loop, replaced after a connection failure."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    async def count_rate(self, counters: Sequence[tuple[str, int]], *, ttl_s: int) -> tuple[int, ...]:
        counts = await self._run("rate", [key for key, _ in counters], [ttl_s, *(limit for _, limit in counters)])
        return tuple(int(count) for count in counts)

    async def admit(
        self, counters: Sequence[tuple[str, int]], slot: str, *, rate_ttl_s: int, slot_limit: int, slot_ttl_s: int,
    ) -> tuple[tuple[int, ...], bool]:
        keys = [key for key, _ in counters] + [slot]
        limits = [limit for _, limit in counters]
        replies = await self._run("admit", keys, [rate_ttl_s, *limits, slot_ttl_s, slot_limit])
        counts = tuple(int(count) for count in replies)
        return counts[:-1], counts[-1] > 0

    async def uncount_rate(self, keys: Sequence[str]) -> None:
        await self._run("uncount", list(keys), [])

    async def take_slot(self, key: str, *, limit: int, ttl_s: int) -> bool:
        return int(await self._run("take", [key], [ttl_s, limit])) > 0

    async def give_slot(self, key: str) -> None:
        await self._run("give", [key], [])

    async def take_slots(self, slots: Sequence[tuple[str, int]], *, ttl_s: int) -> int | None:
        full = int(await self._run("take_all", [key for key, _ in slots], [ttl_s, *(limit for _, limit in slots)]))
        return full - 1 if full else None

    async def give_slots(self, keys: Sequence[str]) -> None:
        await self._run("uncount", list(keys), [])  # the give script's step for each key

    async def _run(self, script: str, keys: list[str], args: list[int]):
        """Run one of the scripts; ServiceUnavailable if Redis cannot be reached or does not answer in time."""
        import redis.exceptions

        loop = asyncio.get_running_loop()
        client, scripts = self._client(loop)
        try:
            return await scripts[script](keys=keys, args=args)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
            if _pool_exhausted(error):
                # Every connection is busy (a loaded event loop reads replies late): Redis itself is fine, and a new
                # client would only open fresh connections to a loop already behind.
                logger.warning("The shared counters (Redis) had no free connection within %g s", REPLY_TIMEOUT_S)
                raise ServiceUnavailable() from error
            # The next question starts from a fresh client rather than trusting this one to recover. The old one is
            # closed once the scripts other questions still run on it have had their time: closing it at once cut
            # their connections mid-command (redis-py then failed them with AttributeError, and the socket with 1011).
            if self._clients.get(loop, (None,))[0] is client:
                del self._clients[loop]
                loop.call_later(RETIRE_AFTER_S, _close_later, client)
            logger.warning("The shared counters (Redis) cannot be used now: %s", error)
            raise ServiceUnavailable() from error

    def _client(self, loop: asyncio.AbstractEventLoop) -> tuple:
        entry = self._clients.get(loop)
        if entry is None:
            import redis.asyncio
            import redis.exceptions
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            # A question in flight per socket can mean more concurrent scripts than a pool has connections: wait
            # for one (at most a reply's time), rather than failing at once as the plain pool does.
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url, max_connections=MAX_CONNECTIONS, timeout=REPLY_TIMEOUT_S, driver_info=_driver_info(),
                socket_connect_timeout=CONNECT_TIMEOUT_S, socket_timeout=REPLY_TIMEOUT_S,
                retry=Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)),
            )
            client = redis.asyncio.Redis.from_pool(pool)
            scripts = {name: client.register_script(source) for name, source in _SCRIPTS.items()}
            entry = self._clients[loop] = (client, scripts)
        return entry


def _pool_exhausted(error: Exception) -> bool:
    """Whether redis-py's blocking pool gave up waiting for a free connection (its ConnectionError "No connection
    available." raised from the wait's TimeoutError), not a connection to Redis that failed."""
    import redis.exceptions

    return type(error) is redis.exceptions.ConnectionError and isinstance(error.__cause__, TimeoutError)


@functools.cache
def _driver_info():
    """The client name and version every connection announces, read once: left to redis-py, each new connection
    reads the package's metadata from disk (15 ms of CPU apiece, most of a worker's when a client is replaced)."""
    import redis
    from redis.driver_info import DriverInfo

    return DriverInfo(lib_version=redis.__version__)


class MemoryCounters:
    """Counters in this process (a site without Redis runs as one process); a lock keeps each step atomic."""

    def __init__(self, clock=time.monotonic) -> None:
        self._values: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _add(self, key: str, amount: int, ttl_s: int) -> int:
        now = self._clock()
        value, expires = self._values.get(key, (0, 0.0))
        if expires <= now:
            value, expires = 0, now + ttl_s
        self._values[key] = (value + amount, expires)
        return value + amount

    async def count_rate(self, counters: Sequence[tuple[str, int]], *, ttl_s: int) -> tuple[int, ...]:
        with self._lock:
            return self._count(counters, ttl_s)

    def _count(self, counters: Sequence[tuple[str, int]], ttl_s: int) -> tuple[int, ...]:
        """count_rate's step (under the lock)."""
        self._forget_expired()
        counts = [0] * len(counters)
        for i, (key, limit) in enumerate(counters):
            counts[i] = self._add(key, 1, ttl_s)
            if 0 < limit < counts[i]:
                break
        return tuple(counts)

    async def admit(
        self, counters: Sequence[tuple[str, int]], slot: str, *, rate_ttl_s: int, slot_limit: int, slot_ttl_s: int,
    ) -> tuple[tuple[int, ...], bool]:
        with self._lock:
            counts = self._count(counters, rate_ttl_s)
            if any(0 < limit < count for (_, limit), count in zip(counters, counts, strict=True)):
                return counts, False
            return counts, self._take(slot, slot_limit, slot_ttl_s)

    async def uncount_rate(self, keys: Sequence[str]) -> None:
        with self._lock:
            for key in keys:
                self._take_back(key)

    async def take_slot(self, key: str, *, limit: int, ttl_s: int) -> bool:
        with self._lock:
            return self._take(key, limit, ttl_s)

    def _take(self, key: str, limit: int, ttl_s: int) -> bool:
        """take_slot's step (under the lock)."""
        held = self._add(key, 1, ttl_s)
        if held > limit > 0:
            self._add(key, -1, ttl_s)
            return False
        self._values[key] = (held, self._clock() + ttl_s)  # as in Redis: a successful take renews the expiry
        return True

    async def give_slot(self, key: str) -> None:
        with self._lock:
            self._take_back(key)

    async def take_slots(self, slots: Sequence[tuple[str, int]], *, ttl_s: int) -> int | None:
        with self._lock:
            for i, (key, limit) in enumerate(slots):
                if not self._take(key, limit, ttl_s):
                    for taken, _ in slots[:i]:
                        self._take_back(taken)
                    return i
            return None

    async def give_slots(self, keys: Sequence[str]) -> None:
        with self._lock:
            for key in keys:
                self._take_back(key)

    def _take_back(self, key: str) -> None:
        """One less in a live counter, keeping its expiry (under the lock)."""
        value, expires = self._values.get(key, (0, 0.0))
        if value > 0 and expires > self._clock():
            self._values[key] = (value - 1, expires)

    def _forget_expired(self) -> None:
        if len(self._values) < 10_000:
            return
        now = self._clock()
        for key in [k for k, (_, expires) in self._values.items() if expires and expires <= now]:
            del self._values[key]


_counters: dict[str, Counters] = {}


def shared_counters() -> Counters:
    """The site's counters: in Redis when REDIS_URL is set, else in this process."""
    url = settings.REDIS_URL or ""
    counters = _counters.get(url)
    if counters is None:
        counters = _counters[url] = RedisCounters(url) if url else MemoryCounters()
    return counters
