"""Random version-4 UUIDs for the event loop, from os.urandom read 4 KB at a time rather than 16 bytes per key.

`uuid.uuid4()` calls os.urandom on each key: a system call that lets go of the GIL, and under load the event loop
then waits for the database threads to hand it back (about 0.5 ms per call in a profiled worker, two calls per
question). The bytes are the same kind (the kernel's random source), only read in bulk; a forked child starts with
an empty buffer, so two processes never issue the same keys.
"""
import os
import threading
import uuid

_CHUNK = 4096  # 256 keys per read
_lock = threading.Lock()
_buffer = b""
_offset = 0


def random_uuid() -> uuid.UUID:
    """A random (version 4) UUID, as unguessable as uuid.uuid4()'s."""
    global _buffer, _offset
    with _lock:
        if _offset + 16 > len(_buffer):
            _buffer, _offset = os.urandom(_CHUNK), 0
        raw = _buffer[_offset:_offset + 16]
        _offset += 16
    return uuid.UUID(bytes=raw, version=4)


def _forget() -> None:
    """Drop the buffer (in a forked child: its parent may issue the same bytes)."""
    global _buffer, _offset
    _buffer, _offset = b"", 0


os.register_at_fork(after_in_child=_forget)
