#!/usr/bin/env bash
# Installs the wheel built by `npx projen package:python` (dist/python/) into a fresh virtual
# environment, with cdk8s from PyPI, and runs the tests.
set -euo pipefail
cd "$(dirname "$0")"
wheels=(../../../dist/python/cdk8s_admission-*.whl)
[ -f "${wheels[0]}" ] || { echo "no wheel in dist/python/: run 'npx projen package:python' first" >&2; exit 1; }

python3 -m venv --clear .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt "${wheels[@]}"
.venv/bin/python -m pytest -p no:cacheprovider "$@"
