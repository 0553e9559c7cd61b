# The two commands: `make run` serves the site with the demo corpus, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: run test setup migrate demo check-deploy

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

test: setup
	$(PY) -m pytest
