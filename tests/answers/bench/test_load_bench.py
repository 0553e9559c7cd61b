"""answers.bench.load_bench: the benchmark's Redis database is emptied, and no shared one is touched."""
import pytest
import redis

from answers.bench.load_bench import empty_redis

OWN_DATABASE = "redis://127.0.0.1:6379/12"


def redis_answers() -> bool:
    try:
        return bool(redis.Redis.from_url(OWN_DATABASE, socket_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.mark.skipif(not redis_answers(), reason="needs Redis on loopback")
def test_the_keys_a_run_leaves_are_removed_and_counted():
    client = redis.Redis.from_url(OWN_DATABASE)
    client.flushdb()
    client.set("rag:limit:127.10.1.2", 5, ex=60)
    client.sadd("asgi:group:answers", "specific.abc")

    assert empty_redis(OWN_DATABASE) == 2
    assert client.dbsize() == 0


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379"])
def test_database_zero_is_refused_before_anything_is_removed(url):
    with pytest.raises(ValueError, match="database 0"):
        empty_redis(url)
