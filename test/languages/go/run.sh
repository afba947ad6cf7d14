#!/usr/bin/env bash
# Builds and tests against the Go module built by `npx projen package:go` (dist/go/cdk8sadmission,
# by a replace directive in go.mod), with cdk8s and the jsii runtime from the module proxy. Run it
# through `npx projen test:go`, which serves cdk8s's Go binding locally (scripts/with-local-go-proxy.sh).
set -euo pipefail
cd "$(dirname "$0")"
[ -f ../../../dist/go/cdk8sadmission/go.mod ] || { echo "no module in dist/go/: run 'npx projen package:go' first" >&2; exit 1; }

# go.sum is not committed (cdk8s's module is built locally, with a hash of its own): written afresh.
rm -f go.sum
go mod tidy
if ! git diff --quiet -- go.mod; then
  echo "test/languages/go/go.mod is not tidy for the package that was built (a new jsii-runtime-go?): commit what go mod tidy wrote" >&2
  git --no-pager diff -- go.mod >&2
  exit 1
fi
go vet ./...
go test "$@" ./...
