#!/usr/bin/env bash
# Install everything the tests need, start nothing by hand, run lint, types and the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
