"""`python -m answers.testing.fake_anthropic --port N`: serve demo answers until Ctrl-C."""
import argparse
import logging
import time

from answers.testing.fake_anthropic.server import FakeAnthropic


def main(argv: list[str] | None = None) -> None:
    """Serve demo answers until Ctrl-C."""
    parser = argparse.ArgumentParser(description="A fake Anthropic Messages API that answers from the prompt.")
    parser.add_argument("--port", type=int, default=8089)
    port = parser.parse_args(argv).port
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    with FakeAnthropic(port=port) as fake:
        print(f"Fake Anthropic API serving demo answers on {fake.url}", flush=True)
        print(f"Point the SDK at it: ANTHROPIC_BASE_URL={fake.url} ANTHROPIC_API_KEY=demo. Ctrl-C stops.", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("Stopped.")


if __name__ == "__main__":
    main()
