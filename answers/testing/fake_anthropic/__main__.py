"""`python -m answers.testing.fake_anthropic --port N`: serve demo answers until Ctrl-C."""
from answers.testing.fake_anthropic import main

main()
