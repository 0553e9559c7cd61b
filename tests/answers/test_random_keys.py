"""Random keys: version-4 UUIDs, all different, a forked child's never its parent's."""
import os
import uuid

from answers import random_keys
from answers.random_keys import random_uuid


def test_keys_are_version_4_uuids_and_all_differ_across_refills():
    keys = [random_uuid() for _ in range(1000)]  # about four buffer refills

    assert all(isinstance(k, uuid.UUID) and k.version == 4 and k.variant == uuid.RFC_4122 for k in keys)
    assert len(set(keys)) == len(keys)


def test_a_forked_child_draws_fresh_bytes_not_its_parents_buffer():
    random_uuid()  # the parent holds a partly used buffer
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: report its next key, then leave at once
        os.write(write, random_uuid().bytes)
        os._exit(0)
    os.waitpid(child, 0)
    childs = uuid.UUID(bytes=os.read(read, 16))
    os.close(read)
    os.close(write)

    assert childs != random_uuid()
    assert random_keys._offset > 0
