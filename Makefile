# The two commands: `make run` serves the site with the demo corpus, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1

FAKE_PORT ?= 8089
# daphne (through rag_site.serve: a deadline for each request to arrive) with the timeouts rag_site/workers.py sets
DAPHNE_FLAGS := --http-timeout 300 --websocket_connect_timeout 5 --ping-interval 20 --ping-timeout 30 \
	--application-close-timeout 10

.PHONY: run run-fake-claude test test-browser setup migrate demo eval eval-real eval-real-ci run-workers loadtest bench \
	bench-ingest bench-ingest-pgdoc audit lint

$(VENV)/installed.stamp: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

setup: $(VENV)/installed.stamp

migrate: setup
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

# Beside daphne, the worker that ingests admin uploads (corpus_admin/tasks.py); stopping one stops both (the worker
# finishes the file in hand first).
INGEST_WORKER := $(PY) manage.py ingest_worker & worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM

run: demo
	@echo ""
	@echo "  rag_site is starting on http://$(HOST):$(PORT)/, with its ingest worker"
	@echo "  Admin: http://$(HOST):$(PORT)/admin/  (create an admin user with: $(PY) manage.py createsuperuser)"
	@echo ""
	$(INGEST_WORKER); \
	$(PY) -m rag_site.serve $(DAPHNE_FLAGS) -b $(HOST) -p $(PORT) rag_site.asgi:application

# The model path without the real API: a local fake Anthropic server answers from the prompt's blocks
# (and sometimes wrongly, to show the verifier at work); the site talks to it exactly as it would to Claude.
run-fake-claude: demo
	@echo "  Fake Anthropic API on http://127.0.0.1:$(FAKE_PORT); rag_site on http://$(HOST):$(PORT)/ answers through it."
	$(PY) -m answers.testing.fake_anthropic --port $(FAKE_PORT) & fake=$$!; \
	$(PY) manage.py ingest_worker & worker=$$!; trap 'kill $$fake $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	ANTHROPIC_API_KEY=fake-key ANTHROPIC_BASE_URL=http://127.0.0.1:$(FAKE_PORT) \
	$(PY) -m rag_site.serve $(DAPHNE_FLAGS) -b $(HOST) -p $(PORT) rag_site.asgi:application

# System tools first: the OCR tests need tesseract, the browser tests chromium (.ci/system-tools installs them as root).
# Browser tests run in their own process: sync Playwright keeps an event loop in the main thread (hence the
# async-unsafe flag, for that run only), which must not meet the pytest-asyncio tests.
test: setup
	bash .ci/system-tools
	$(PY) -m pytest -m "not browser"
	$(MAKE) test-browser

test-browser: setup
	bash .ci/system-tools
	DJANGO_ALLOW_ASYNC_UNSAFE=true timeout 900 $(PY) -m pytest -m browser tests/browser

# Production-style: WORKERS daphne processes on PORT..PORT+WORKERS-1, DEBUG off, against DATABASE_URL and REDIS_URL
# (default: PostgreSQL and Redis on loopback), after `check --deploy`, collectstatic, migrate and load_demo.
# Plain HTTP on loopback; behind a proxy that ends TLS, add WORKER_FLAGS=--behind-tls-proxy. Behind a proxy that
# overwrites X-Forwarded-For, add --proxy-headers (visitors' addresses, for the rate limits, from that header; never
# without such a proxy: clients could spoof it). See rag_site/workers.py.
WORKERS ?= 2
WORKER_FLAGS ?=
run-workers: setup
	$(PY) -m rag_site.workers --workers $(WORKERS) --host $(HOST) --port $(PORT) $(WORKER_FLAGS)

# Websocket clients asking demo questions against a running site on this machine (e.g. one started by run-workers).
URL ?= http://$(HOST):$(PORT)
CLIENTS ?= 100
QUESTIONS ?= 5
loadtest: setup
	$(PY) manage.py loadtest --url $(URL) --clients $(CLIENTS) --questions $(QUESTIONS) --spread-addresses

# Measure the answers on the demo golden set, in a throwaway database (the site's data is never touched), and replay
# the scripted model answers through Claude's path against the fake server (false sentences delivered by kind);
# fails when a figure named in the floor file misses it or any unverified sentence was delivered. Report: var/eval/.
eval: setup
	$(PY) manage.py evaluate --golden answers/evaluation/golden/demo.jsonl --corpus corpus_admin/demo/documents \
		--report var/eval --json var/eval/results.json --sweep --floor answers/evaluation/golden/floor.json \
		--followups answers/evaluation/followups/demo.jsonl --replay answers/evaluation/replay/demo.jsonl

# The golden sets over real manuals (answers/evaluation/golden/<name>.jsonl, written before the reader was tuned; a
# held-out third reported apart): each manual fetched once with apt-get download into var/corpora/<name>/ (see
# answers/evaluation/corpora.py), then evaluated in a throwaway database. Reports: var/eval-real/<name>/.
# eval-real-ci is the smallest (the Debian handbook, under a minute here), with a floor just under today's figures.
REAL_CORPORA ?= debian-handbook python postgresql
eval-real: setup
	for name in $(REAL_CORPORA); do \
	  $(PY) -m answers.evaluation.corpora $$name >/dev/null && \
	  $(PY) manage.py evaluate --golden answers/evaluation/golden/$$name.jsonl --corpus var/corpora/$$name/docs \
	    --report var/eval-real/$$name --json var/eval-real/$$name/results.json || exit 1; \
	done

# CI runs it lexical (RAG_EMBEDDINGS=0): embedding a whole manual's chunks and sentences on CI's 2 cores would add
# minutes to every run; make eval (the demo corpus) and make eval-real run with the shipped defaults (embeddings on, bm25).
eval-real-ci: setup
	$(PY) -m answers.evaluation.corpora debian-handbook >/dev/null
	RAG_EMBEDDINGS=0 $(PY) manage.py evaluate --golden answers/evaluation/golden/debian-handbook.jsonl \
		--corpus var/corpora/debian-handbook/docs --report var/eval-real/debian-handbook \
		--json var/eval-real/debian-handbook/results.json --floor answers/evaluation/golden/debian-handbook-floor.json

# Ingestion throughput on real documentation trees, through manage.py ingest into a database made afresh for each
# run: SQLite in var/bench/, and with BENCH_PG=1 also a PostgreSQL database rag_bench_ingest on BENCH_PG_HOST
# (created, then dropped). The site's own database is never touched. bench-ingest: the docs/ folder of Django's source
# release (666 files in nested folders, 33 of them index.txt; fetched once with pip into var/bench/).
# bench-ingest-pgdoc: the PostgreSQL 15 manual (1,169 HTML pages; fetched once as the postgresql real corpus, with
# apt-get download into var/corpora/postgresql/ by answers/evaluation/corpora.py, the same fetch as make eval-real).
BENCH := var/bench
DJANGO_DOCS := $(BENCH)/django-docs
PG_MANUAL := var/corpora/postgresql/docs
BENCH_PG ?=
BENCH_PG_HOST ?= 127.0.0.1
BENCH_PG_USER ?= postgres
BENCH_PG_DB := rag_bench_ingest
BENCH_SQLITE := sqlite:///$(abspath $(BENCH))/ingest.sqlite3
BENCH_PG_URL := postgres://$(BENCH_PG_USER)@$(BENCH_PG_HOST):5432/$(BENCH_PG_DB)
# $(call bench_ingest,FOLDER): the folder ingested into a fresh SQLite database, and with BENCH_PG=1 a PostgreSQL one.
define bench_ingest
	rm -f $(BENCH)/ingest.sqlite3
	DATABASE_URL=$(BENCH_SQLITE) $(PY) manage.py migrate -v 0
	DATABASE_URL=$(BENCH_SQLITE) $(PY) manage.py ingest $(1)
	if [ -n "$(BENCH_PG)" ]; then \
	  dropdb --if-exists -h $(BENCH_PG_HOST) -U $(BENCH_PG_USER) $(BENCH_PG_DB) && \
	  createdb -h $(BENCH_PG_HOST) -U $(BENCH_PG_USER) $(BENCH_PG_DB) && \
	  DATABASE_URL=$(BENCH_PG_URL) $(PY) manage.py migrate -v 0 && \
	  DATABASE_URL=$(BENCH_PG_URL) $(PY) manage.py ingest $(1); \
	  status=$$?; dropdb -h $(BENCH_PG_HOST) -U $(BENCH_PG_USER) $(BENCH_PG_DB); exit $$status; \
	fi
endef
bench-ingest: setup $(DJANGO_DOCS)
	$(call bench_ingest,$(DJANGO_DOCS))

bench-ingest-pgdoc: setup $(PG_MANUAL)
	$(call bench_ingest,$(PG_MANUAL))

$(PG_MANUAL): | setup
	$(PY) -m answers.evaluation.corpora postgresql >/dev/null

$(DJANGO_DOCS):
	rm -rf $(BENCH)/download && mkdir -p $(BENCH)/download
	$(PY) -m pip download --quiet --no-binary :all: --no-deps "django==5.2.*" -d $(BENCH)/download
	tar -xzf $(BENCH)/download/django-5.2.*.tar.gz -C $(BENCH)/download
	mv $(BENCH)/download/django-5.2.*/docs $(DJANGO_DOCS)
	rm -rf $(BENCH)/download

# Every figure of the README's Benchmarks and Scaling tables, from a fresh clone: the retrieval benchmark at 100k and
# 1M synthetic chunks (1M: several minutes, peak RSS about 7 GB), BEIR SciFact (SCIFACT: the BEIR folder), the
# verifier's and the reader's cost, and the load test (answers/bench/load_bench.py: a PostgreSQL database of its own,
# rag_bench_load, made afresh and dropped after; Redis database 9, emptied before and after; 1 then 2 workers on ports 8500.., each also
# serving the ceiling, RAG_LOADTEST_ECHO=1; LOAD_RUNS runs each), then answers/bench/readme_tables.py rewrites the
# tables between the README's <!-- bench:NAME --> markers, and the machine they ran on (cores, CPU, memory, the
# load average at the start) between <!-- bench:machine -->. Output: var/bench/*.json.
SCIFACT ?= ../shared/datasets/scifact
LOAD_RUNS ?= 3
BENCH_LOAD_DB := rag_bench_load
BENCH_LOAD_URL := postgres://$(BENCH_PG_USER)@$(BENCH_PG_HOST):5432/$(BENCH_LOAD_DB)
bench: setup
	mkdir -p $(BENCH)
	echo "Measured by \`make bench\` on $$(nproc) cores ($$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -1)), \
	$$(awk '/^MemTotal/ {printf "%.0f GB", $$2 / 1048576}' /proc/meminfo) of memory, $$(uname -m), \
	$$(date -u '+%F %H:%M') UTC, commit $$(git rev-parse --short HEAD), load average $$(cut -d' ' -f1 /proc/loadavg) \
	at the start." > $(BENCH)/machine.txt
	$(PY) manage.py bench_retrieval --chunks 100000 --json > $(BENCH)/retrieval.json
	$(PY) manage.py bench_retrieval --chunks 1000000 --json > $(BENCH)/retrieval-1m.json
	$(PY) manage.py bench_beir $(SCIFACT) --sentences --json > $(BENCH)/beir.json
	$(PY) manage.py bench_verify --json | tee $(BENCH)/verify.json
	$(PY) manage.py bench_reader --json | tee $(BENCH)/reader.json
	dropdb --if-exists -h $(BENCH_PG_HOST) -U $(BENCH_PG_USER) $(BENCH_LOAD_DB)
	$(PY) -m answers.bench.load_bench --database-url $(BENCH_LOAD_URL) --runs $(LOAD_RUNS) --out $(BENCH)/load.json; \
	  status=$$?; dropdb --if-exists -h $(BENCH_PG_HOST) -U $(BENCH_PG_USER) $(BENCH_LOAD_DB); exit $$status
	$(PY) -m answers.bench.readme_tables --readme README.md --load $(BENCH)/load.json \
	  --retrieval $(BENCH)/retrieval.json --retrieval-1m $(BENCH)/retrieval-1m.json \
	  --verify $(BENCH)/verify.json --reader $(BENCH)/reader.json \
	  --beir $(BENCH)/beir.json --beir-command "manage.py bench_beir $(SCIFACT) --sentences --json" \
	  --machine "$$(cat $(BENCH)/machine.txt)"

# The dependency audit, offline: requirements.txt against the PyPA advisory database snapshot in ../shared/advisories
# (RAG_ADVISORIES=path to use another), with skjold in a venv of its own. See .ci/audit.
audit:
	bash .ci/audit

# The static checks (pyproject.toml configures each; .pre-commit-config.yaml runs the same): ruff's rule set, mypy
# with django-stubs, and the import contracts (answers.pipeline is a pure library; corpus_admin imports only it).
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy answers corpus_admin rag_site
	$(VENV)/bin/lint-imports
