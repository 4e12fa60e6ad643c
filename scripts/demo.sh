#!/usr/bin/env bash
# Set up ragcite, ingest the bundled demo corpus into ./.ragcite/demo.db and ask it questions.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export RAGCITE_STORE=${RAGCITE_STORE:-.ragcite/demo.db}
.venv/bin/ragcite ingest demo/
.venv/bin/ragcite ask "How long do we keep customer PII, and does the EU differ from the US?"
.venv/bin/ragcite ask "How much parental leave does the primary caregiver get?"
.venv/bin/ragcite ask "What is the vesting schedule for employee stock options?"
echo
echo "Ask your own: RAGCITE_STORE=$RAGCITE_STORE .venv/bin/ragcite ask \"...\" (add --json for JSON)"
