# The two commands: `make run` serves the site with the demo corpus, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1

FAKE_PORT ?= 8089

.PHONY: run run-fake-claude test test-browser setup migrate demo

$(VENV)/installed.stamp: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

setup: $(VENV)/installed.stamp

migrate: setup
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	@echo ""
	@echo "  rag_site is starting on http://$(HOST):$(PORT)/"
	@echo "  Admin: http://$(HOST):$(PORT)/admin/  (create an admin user with: $(PY) manage.py createsuperuser)"
	@echo ""
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) rag_site.asgi:application

# The model path without the real API: a local fake Anthropic server answers from the prompt's blocks
# (and sometimes wrongly, to show the verifier at work); the site talks to it exactly as it would to Claude.
run-fake-claude: demo
	@echo "  Fake Anthropic API on http://127.0.0.1:$(FAKE_PORT); rag_site on http://$(HOST):$(PORT)/ answers through it."
	$(PY) -m answers.testing.fake_anthropic --port $(FAKE_PORT) & fake=$$!; trap 'kill $$fake' EXIT INT TERM; \
	ANTHROPIC_API_KEY=fake-key ANTHROPIC_BASE_URL=http://127.0.0.1:$(FAKE_PORT) \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) rag_site.asgi:application

# Browser tests run in their own process: sync Playwright keeps an event loop in the main thread (hence the
# async-unsafe flag, for that run only), which must not meet the pytest-asyncio tests.
test: setup
	$(PY) -m pytest -m "not browser"
	$(MAKE) test-browser

test-browser: setup
	DJANGO_ALLOW_ASYNC_UNSAFE=true timeout 900 $(PY) -m pytest -m browser tests/browser
