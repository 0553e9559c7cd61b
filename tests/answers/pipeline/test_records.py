"""A chunk record: plain data, hashed cheaply for the verifier's caches."""


def test_equal_records_hash_alike_and_a_record_is_found_in_a_cache_keyed_by_it(make_record):
    record = make_record("c1", text="Refunds take 5 days.")
    same = make_record("c1", text="Refunds take 5 days.")

    assert record == same and hash(record) == hash(same)
    assert {record: 1}[same] == 1
