import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from corpus_admin.tokens import MAX_TOKEN_BYTES, _encoding, count_tokens, decode, encode, token_prefix

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hello world", 2),
        ("", 0),
        ("Refunds are processed within five working days.", 9),
    ],
)
def test_count_tokens_matches_cl100k_base(text: str, expected: int) -> None:
    assert count_tokens(text) == expected


def test_encode_gives_cl100k_base_token_ids() -> None:
    assert encode("hello world") == [15339, 1917]


def test_decode_round_trips_encode() -> None:
    text = "Café — naïve résumé, 42 × 7 = 294 🎉"
    assert decode(encode(text)) == text


def test_the_longest_token_has_max_token_bytes() -> None:
    assert max(len(token) for token in _encoding()._mergeable_ranks) == MAX_TOKEN_BYTES


@pytest.mark.parametrize(
    ("text", "n", "prefix"),
    [
        ("hello world again", 2, "hello world"),
        ("hello world", 5, "hello world"),
        ("🎉🎉", 1, ""),  # the first token holds only part of the first character's bytes
        ("🎉🎉", 3, "🎉"),
        ("吾輩は猫である", 2, "吾"),
        ("吾輩は猫である", 6, "吾輩は"),
    ],
)
def test_token_prefix_is_what_the_first_tokens_cover_in_whole_characters(text: str, n: int, prefix: str) -> None:
    assert token_prefix(text, n) == prefix


def test_special_token_strings_are_counted_as_plain_text() -> None:
    assert count_tokens("<|endoftext|>") > 1


def test_tokens_load_without_network_or_temp_cache(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import os, socket

        def refuse(*args, **kwargs):
            raise OSError("network disabled in test")

        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse

        from corpus_admin.tokens import count_tokens

        assert count_tokens("hello world") == 2
        assert os.environ["TIKTOKEN_CACHE_DIR"] == ""
        """
    )
    env = {key: value for key, value in os.environ.items() if key not in {"TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"}}
    env |= {"TMPDIR": str(tmp_path), "PYTHONPATH": str(REPO_ROOT), "NO_PROXY": "", "HTTPS_PROXY": ""}
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []
