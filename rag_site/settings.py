"""Settings for rag_site: every value comes from an environment variable with an embedded default.

The README's settings table lists each variable; keep the two in step.
"""
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from answers.pipeline.config import PipelineConfig
from rag_site.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # local state: test databases, the persisted index, collected static files
VAR_DIR.mkdir(exist_ok=True)

# tiktoken's offline encoding is read from its installed package; an empty cache dir keeps the shared
# temp cache (present on one machine, absent on the next) out of the picture.
os.environ.setdefault("TIKTOKEN_CACHE_DIR", "")

DEBUG = env_bool("DJANGO_DEBUG", True)

# With DEBUG off and no key the key stays empty: the system check rag_site.E001 reports it by name, and the site
# refuses to start (manage.py's commands run the checks; rag_site.asgi runs them for daphne).
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-local-development-key-only-for-debug-mode"

# Checks a deployment may silence by id (Django's SILENCED_SYSTEM_CHECKS); rag_site.workers' deployment check
# silences answers.W001 and corpus_admin.W001 (extractive answers, or no OCR, are a choice, not a flaw).
SILENCED_SYSTEM_CHECKS = env_list("DJANGO_SILENCED_SYSTEM_CHECKS", [])

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "corpus_admin",
    "answers",
    "rag_site",  # the project's system checks (rag_site/checks.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "rag_site.urls"
ASGI_APPLICATION = "rag_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "rag_site.accounts.caller",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DJANGO_DB_CONN_MAX_AGE", 0, minimum=0),
    )
}
# Browser tests run daphne in another process, so the test database must be one both can open (a file for SQLite,
# a named database for PostgreSQL); the run id, inherited by child processes, keeps two test runs on one machine apart.
_run_id = os.environ.setdefault("RAG_TEST_RUN_ID", str(os.getpid()))
_test_db_name = env_str("DJANGO_TEST_DB_NAME", f"test_rag_site_{_run_id}")  # PostgreSQL's
_sqlite_lock_wait_s = env_float("DJANGO_DB_TIMEOUT_S", 5.0, minimum=0.1)  # SQLite's busy timeout
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{_run_id}.sqlite3")}
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = _sqlite_lock_wait_s
    # Writers take the write lock when their transaction begins, so concurrent ingests queue behind the busy timeout;
    # a deferred transaction that read first fails at once with "database is locked" when it comes to write.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
else:
    DATABASES["default"]["TEST"] = {"NAME": _test_db_name}
# A pool of PostgreSQL connections per worker (psycopg_pool): Django's advice for ASGI, where persistent connections
# would be one per thread. The production launcher turns it on; 0 opens a connection per question instead.
_pool_max = env_int("DJANGO_DB_POOL_MAX", 0, minimum=0)
if _pool_max and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured(
            "Set DJANGO_DB_POOL_MAX or DJANGO_DB_CONN_MAX_AGE, not both: a pool keeps connections."
        )
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": _pool_max, "timeout": 10}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        # redis-py's 5 s read timeout races channels-redis's 5 s blocking read and closes idle sockets (1011).
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
    # Shared by every worker, like the limits' counters (answers/limits/counters.py), which use Redis directly.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Admin uploads are ingested by a background worker (`manage.py ingest_worker`, which `make run` starts beside daphne)
# through Django's tasks framework: "database" queues them in the database (no other server), "rq" in Redis (REDIS_URL),
# "immediate" runs each one inside the request that queued it. The job's bytes live in the database either way.
RAG_TASKS_BACKEND = env_str("RAG_TASKS_BACKEND", "database")
_TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "rq": "django_tasks_rq.RQBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
}
if RAG_TASKS_BACKEND not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"RAG_TASKS_BACKEND must be {' or '.join(_TASK_BACKENDS)}, not {RAG_TASKS_BACKEND!r}")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[RAG_TASKS_BACKEND], "QUEUES": ["default"]}}
if RAG_TASKS_BACKEND == "rq":
    if not REDIS_URL:
        raise ImproperlyConfigured("RAG_TASKS_BACKEND=rq needs REDIS_URL.")
    INSTALLED_APPS += ["django_rq", "django_tasks_rq"]
    # RQ stops a job after DEFAULT_TIMEOUT s; an ingest's parse is bounded by RAG_PARSE_TIMEOUT_S, its write is not.
    RQ_QUEUES = {"default": {"URL": REDIS_URL, "DEFAULT_TIMEOUT": 3600}}
# A running job whose worker has not signalled for this long is taken as stopped: it is queued again, or failed once it
# has been tried RAG_INGEST_ATTEMPTS times. The worker signals every quarter of it while it ingests.
RAG_INGEST_STALE_S = env_float("RAG_INGEST_STALE_S", 120.0, minimum=1.0)
RAG_INGEST_ATTEMPTS = env_int("RAG_INGEST_ATTEMPTS", 3, minimum=1)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Uploads: the cap is enforced again by ingestion with a message naming the file.
RAG_MAX_UPLOAD_MB = env_int("RAG_MAX_UPLOAD_MB", 20, minimum=1)
# A folder uploaded as a .zip (corpus_admin/archives.py): files it may hold, and what they may decompress to in all
# (a zip bomb is refused before anything is decompressed). Each file is still held to RAG_MAX_UPLOAD_MB.
RAG_MAX_ARCHIVE_FILES = env_int("RAG_MAX_ARCHIVE_FILES", 5000, minimum=1)
RAG_MAX_ARCHIVE_MB = env_int("RAG_MAX_ARCHIVE_MB", 200, minimum=1)
# Parsing runs in a worker process (corpus_admin/sandbox.py): a file that needs more time or memory (MB on top
# of the worker's ~110-135 MB at rest) is rejected alone. A 20 MB HTML file of dense markup needs ~25 s, ~1.1 GB.
RAG_PARSE_ISOLATION = env_bool("RAG_PARSE_ISOLATION", True)
RAG_PARSE_TIMEOUT_S = env_float("RAG_PARSE_TIMEOUT_S", 30.0, minimum=1.0)
RAG_PARSE_MEMORY_MB = env_int("RAG_PARSE_MEMORY_MB", 1536, minimum=64)
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FILES = env_int("RAG_MAX_UPLOAD_FILES", 100, minimum=1)
# Whole request bodies are capped before Django reads them (rag_site/limits.py): uploads, and everything else.
RAG_MAX_REQUEST_MB = env_int("RAG_MAX_REQUEST_MB", 100, minimum=1)
# A request must have arrived whole this long after its first line (rag_site/serve.py), or it gets 408.
RAG_REQUEST_DEADLINE_S = env_float("RAG_REQUEST_DEADLINE_S", 120.0, minimum=1.0)

RAG_CHUNK_TOKENS = env_int("RAG_CHUNK_TOKENS", 300, minimum=20)
RAG_CHUNK_OVERLAP = env_int("RAG_CHUNK_OVERLAP", 40, minimum=0)
if RAG_CHUNK_OVERLAP >= RAG_CHUNK_TOKENS:
    raise ImproperlyConfigured("RAG_CHUNK_OVERLAP must be smaller than RAG_CHUNK_TOKENS.")

# The answer pipeline (§5): every threshold, with the defaults the README documents.
# Their defaults are the pipeline's own (answers/pipeline/config.py), stated there once.
_PIPELINE = PipelineConfig()
RAG_TOP_K = env_int("RAG_TOP_K", _PIPELINE.top_k, minimum=1)
RAG_MIN_SCORE = env_float("RAG_MIN_SCORE", _PIPELINE.min_score, minimum=0.0)
RAG_MIN_COVERAGE = env_float("RAG_MIN_COVERAGE", _PIPELINE.min_coverage, minimum=0.0)
RAG_CONTEXT_TOKENS = env_int("RAG_CONTEXT_TOKENS", _PIPELINE.context_tokens, minimum=50)
RAG_MAX_BLOCKS = env_int("RAG_MAX_BLOCKS", _PIPELINE.max_blocks, minimum=1)
RAG_PER_SOURCE = env_int("RAG_PER_SOURCE", _PIPELINE.per_source, minimum=1)
RAG_MIN_OVERLAP = env_float("RAG_MIN_OVERLAP", _PIPELINE.min_overlap, minimum=0.0)
RAG_MIN_SENTENCE_COVERAGE = env_float("RAG_MIN_SENTENCE_COVERAGE", _PIPELINE.min_sentence_coverage, minimum=0.0)
RAG_MIN_ANSWER_SCORE = env_float("RAG_MIN_ANSWER_SCORE", _PIPELINE.min_answer_score, minimum=0.0)
RAG_STOPWORDS = env_bool("RAG_STOPWORDS", _PIPELINE.tokenizer.stopwords)
RAG_STEMMING = env_bool("RAG_STEMMING", _PIPELINE.tokenizer.stem)
# After each index build: a full collection, then gc.freeze(), so later collections skip the index and the code.
RAG_GC_FREEZE = env_bool("RAG_GC_FREEZE", True)
RAG_RETRIEVER = env_str("RAG_RETRIEVER", "memory")  # answers.retrieval.backends.BACKENDS: where retrieval runs
if RAG_RETRIEVER not in ("memory",):
    raise ImproperlyConfigured(f"RAG_RETRIEVER must be 'memory' (the in-process index), not {RAG_RETRIEVER!r}")
# Retrieval: BM25 alone, or BM25 fused with dense retrieval over the chunk vectors (answers.pipeline.retrieve.hybrid).
RAG_RETRIEVAL = env_str("RAG_RETRIEVAL", "bm25")
if RAG_RETRIEVAL not in ("bm25", "hybrid"):
    raise ImproperlyConfigured(f"RAG_RETRIEVAL must be 'bm25' or 'hybrid', not {RAG_RETRIEVAL!r}")
# Hybrid fusion (answers.pipeline.retrieve.hybrid.FusionConfig): BM25's first N hits kept first, in BM25 order (0: plain
# RRF); a dense hit under this cosine similarity adds nothing (-1: every dense hit counts).
RAG_HYBRID_KEEP_BM25 = env_int("RAG_HYBRID_KEEP_BM25", 0, minimum=0)
RAG_HYBRID_DENSE_FLOOR = env_float("RAG_HYBRID_DENSE_FLOOR", -1.0, minimum=-1.0)
# Chunk vectors at ingest and index build, and the question's at question time (answers.pipeline.embed). Off, or
# without the model's packages, everything is lexical. The tests switch it off except where they test it.
RAG_EMBEDDINGS = env_bool("RAG_EMBEDDINGS", True)
RAG_MAX_QUESTION_CHARS = env_int("RAG_MAX_QUESTION_CHARS", 2000, minimum=10)
RAG_RATE_LIMIT = env_int("RAG_RATE_LIMIT", 20, minimum=0)  # questions per caller per minute; 0 switches it off
# Every anonymous question from one address (REMOTE_ADDR), whatever session it presents; 0 switches it off.
RAG_ADDRESS_RATE_LIMIT = env_int("RAG_ADDRESS_RATE_LIMIT", 60, minimum=0)
RAG_SITE_RATE_LIMIT = env_int("RAG_SITE_RATE_LIMIT", 6000, minimum=0)  # questions per minute for the whole site
RAG_MAX_CONCURRENT_PER_CALLER = env_int("RAG_MAX_CONCURRENT_PER_CALLER", 2, minimum=0)  # across sockets and workers
RAG_MAX_CONCURRENT_ANSWERS = env_int("RAG_MAX_CONCURRENT_ANSWERS", 64, minimum=1)  # per worker process
RAG_ANSWER_QUEUE_WAIT_S = env_float("RAG_ANSWER_QUEUE_WAIT_S", 10.0, minimum=0.0)
RAG_MAX_SOCKETS_PER_CALLER = env_int("RAG_MAX_SOCKETS_PER_CALLER", 20, minimum=0)  # open chat sockets, all workers
# Open chat sockets of anonymous callers with sessions from one address, whatever sessions they present; 0: no cap.
RAG_MAX_SOCKETS_PER_ADDRESS = env_int("RAG_MAX_SOCKETS_PER_ADDRESS", 100, minimum=0)
# Mounts ws/echo/, the load test's ceiling (answers/bench/echo.py): for measuring only, never in production.
RAG_LOADTEST_ECHO = env_bool("RAG_LOADTEST_ECHO", False)
# Database calls of a worker run side by side on this many threads (answers/dbcalls.py; PostgreSQL only); 0: one thread.
RAG_DB_THREADS = env_int("RAG_DB_THREADS", 0, minimum=0)
# Ratings (answers/ratings.py): the longest comment, and ratings a minute per caller (0 switches the limit off).
RAG_RATING_COMMENT_CHARS = env_int("RAG_RATING_COMMENT_CHARS", 1000, minimum=0)
RAG_RATING_RATE_LIMIT = env_int("RAG_RATING_RATE_LIMIT", 30, minimum=0)
# New sessions a minute given to anonymous visitors of the chat page from one address (0 switches the limit off).
RAG_SESSION_MINT_LIMIT = env_int("RAG_SESSION_MINT_LIMIT", 30, minimum=0)
# Conversations (answers/conversations.py): an anonymous visitor's are kept this many days after their last question.
RAG_ANON_CONVERSATION_DAYS = env_int("RAG_ANON_CONVERSATION_DAYS", 7, minimum=1)
# The golden file the admin's "Add to golden set" action appends to; a relative path is the project's.
RAG_GOLDEN_APPEND_PATH = BASE_DIR / env_str("RAG_GOLDEN_APPEND_PATH", "var/golden/from-log.jsonl")

# The model path (§5.5): with a key, Claude writes the answers behind the same verifier.
ANTHROPIC_API_KEY = env_str("ANTHROPIC_API_KEY")
ANTHROPIC_BASE_URL = env_str("ANTHROPIC_BASE_URL") or None
RAG_ANSWER_MODEL = env_str("RAG_ANSWER_MODEL", "claude-sonnet-5")
RAG_COMPRESS_MODEL = env_str("RAG_COMPRESS_MODEL", "claude-haiku-4-5-20251001")
RAG_COMPRESS = env_bool("RAG_COMPRESS", False)
RAG_ANSWER_MAX_TOKENS = env_int("RAG_ANSWER_MAX_TOKENS", 1024, minimum=16)
RAG_ANSWER_TIMEOUT_S = env_float("RAG_ANSWER_TIMEOUT_S", 60.0, minimum=1.0)
RAG_LLM_RETRIES = env_int("RAG_LLM_RETRIES", 2, minimum=0)
RAG_LLM_RETRY_AFTER_CAP_S = env_float("RAG_LLM_RETRY_AFTER_CAP_S", 10.0, minimum=0.0)
RAG_MAX_CONCURRENT_LLM = env_int("RAG_MAX_CONCURRENT_LLM", 8, minimum=1)
RAG_LLM_QUEUE_WAIT_S = env_float("RAG_LLM_QUEUE_WAIT_S", 10.0, minimum=0.0)
RAG_REWRITE_TIMEOUT_S = env_float("RAG_REWRITE_TIMEOUT_S", 5.0, minimum=0.1)  # the follow-up rewrite call
RAG_FALLBACK = env_str("RAG_FALLBACK", "")
if RAG_FALLBACK not in ("", "extractive"):
    raise ImproperlyConfigured(f"RAG_FALLBACK must be empty or 'extractive', not {RAG_FALLBACK!r}")

# The pages load only their own scripts and styles; htmx runs with eval and script tags off (templates/base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# Security: production values switch on with DEBUG off; each can be overridden.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("DJANGO_BEHIND_TLS_PROXY", False) else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_ENGINE = "rag_site.sessions"  # the database store, a new visitor written once (rag_site/sessions.py)

# Every user signs in at the site's own page (rag_site/accounts.py); the admin keeps its own for staff.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
RAG_LOGIN_RATE_LIMIT = env_int("RAG_LOGIN_RATE_LIMIT", 10, minimum=0)  # failed sign-ins per address and per username

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": ["console"], "level": "INFO", "propagate": False}},
}
