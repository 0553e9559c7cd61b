"""A refused file's error: its name and reason, intact across processes."""
import pickle

from corpus_admin.parsing import RejectedFile


def test_rejected_file_survives_pickling() -> None:
    error = pickle.loads(pickle.dumps(RejectedFile("a.txt", "the file is empty")))
    assert (error.file_name, error.reason, str(error)) == ("a.txt", "the file is empty", "a.txt: the file is empty")
