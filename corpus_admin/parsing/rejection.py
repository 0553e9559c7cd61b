"""How a file is refused: Reject inside the parsers, RejectedFile (with the file's name) to the caller."""


class RejectedFile(Exception):
    """A file that cannot be ingested, with a message naming the file and the reason."""

    def __init__(self, file_name: str, reason: str) -> None:
        # Both go to Exception.args so the exception survives pickling between processes.
        super().__init__(file_name, reason)
        self.file_name = file_name
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.file_name}: {self.reason}"


class Reject(Exception):
    """A rejection reason raised before the file name is attached."""
