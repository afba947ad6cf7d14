#!/usr/bin/env bash
# Builds and tests against the Maven artifact built by `npx projen package:java` (dist/java/, a
# Maven repository), with cdk8s and JUnit from Maven Central.
set -euo pipefail
cd "$(dirname "$0")"
[ -f ../../../dist/java/io/github/cdk8s-admission/cdk8s-admission/0.0.0/cdk8s-admission-0.0.0.jar ] \
  || { echo "no artifact in dist/java/: run 'npx projen package:java' first" >&2; exit 1; }

# A local repository of this test's own (git-ignored): Maven never re-reads a release it has cached,
# and every local build is 0.0.0, so the copy of the library from the last run is dropped first.
repository="$PWD/.m2"
rm -rf "$repository/io/github/cdk8s-admission"
mvn --batch-mode --no-transfer-progress -Dmaven.repo.local="$repository" "$@" test
