"""The session engine: Django's database sessions, a new visitor's page costing one statement (the insert), not three,
and a session read in plain SQL.

A new visitor's page (answers/views.py `chat`) saves the session so their conversations have a key. Django's
database store asks first whether a random 32-character key is taken (a SELECT), inserts the row, then the session
middleware writes it again at the end of the request (an UPDATE of the same data, in a transaction of its own),
because `create()` marks the session modified so that the cookie is set. Here the insert alone decides whether the
key is free (a taken one raises CreateError and `create()` draws another, as Django's own loop does), and a save
that would rewrite what this store has just inserted, unchanged, is skipped: the cookie is still set.

Every websocket question reads its session again (a sign-out elsewhere counts from the next question): the same
SELECT as Django's (the key, not expired), written as plain SQL, as `corpus_stamp` is, since the ORM's `get()` cost
four times the query's own CPU (0.40 ms against 0.10 ms per read in-process on PostgreSQL). A store made with
`read_with` reads other single values in that statement (the socket's question: the corpus stamp), one round trip
fewer.
"""
import copy
from collections.abc import Sequence
from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.db import connections, router
from django.utils import timezone
from django.utils.crypto import get_random_string


class SessionStore(db.SessionStore):
    """Django's database session store, without the key's existence check and the unchanged rewrite."""

    def __init__(self, session_key: str | None = None, *, read_with: Sequence[str] = ()) -> None:
        """`read_with`: scalar SQL expressions the session's read also reads, in the same statement (their values in
        `read_with_values` once it ran; empty when there was nothing to read, a store without a key)."""
        super().__init__(session_key)
        self._inserted: tuple[str, dict[str, Any]] | None = None  # the key and data this store inserted last
        self._read_with = tuple(read_with)
        self.read_with_values: tuple[Any, ...] = ()

    def _get_new_session_key(self) -> str:
        """A random key; the insert with must_create, not a query before it, finds the (vanishingly rare) taken one."""
        return get_random_string(32, VALID_KEY_CHARS)

    def _get_session_from_db(self) -> Any:
        """The stored session with this key that has not expired (a Session holding its key and data), else None and
        no key, as Django's store reads it."""
        session_key = self.session_key
        connection = connections[router.db_for_read(self.model)]
        quote = connection.ops.quote_name
        meta = self.model._meta
        columns = {field.name: quote(field.column) for field in meta.concrete_fields}
        row = None
        if session_key is not None:
            select = (f"SELECT {columns['session_data']} FROM {quote(meta.db_table)}"
                      f" WHERE {columns['session_key']} = %s AND {columns['expire_date']} > %s")
            if self._read_with:  # one row whatever is found: the session's data (NULL if none), then the others
                select = f"SELECT ({select}), {', '.join(self._read_with)}"
            with connection.cursor() as cursor:
                cursor.execute(select, [session_key, connection.ops.adapt_datetimefield_value(timezone.now())])
                row = cursor.fetchone()
            if self._read_with:
                self.read_with_values, row = tuple(row[1:]), (None if row[0] is None else row)
        if session_key is None or row is None:
            self._session_key = None
            return None
        return self.model(session_key=session_key, session_data=row[0])

    def save(self, must_create: bool = False) -> None:
        """Write the session, unless it is what this store inserted and nothing changed since."""
        if self.session_key is None:
            return self.create()
        if not must_create and self._inserted is not None and self._inserted == (self.session_key, dict(self.items())):
            return None
        super().save(must_create=must_create)
        # After an insert the data is in memory (create() starts it empty), so items() reads no row.
        self._inserted = (self.session_key, copy.deepcopy(dict(self.items()))) if must_create else None
        return None
