"""Events as Server-Sent Events for /api/answer/stream: one `event:`/`data:` frame per event shown to callers."""
import json

from answers.pipeline.events import STAFF_ONLY, Event
from answers.present.api import event_json
from corpus_admin.models import chunk_url


def sse_frame(event: Event) -> str:
    """The frame of one event; empty for what is for staff only (dropped sentences, diagnostics)."""
    if isinstance(event, STAFF_ONLY):
        return ""
    return f"event: {event.kind}\ndata: {json.dumps(event_json(event, chunk_url))}\n\n"
