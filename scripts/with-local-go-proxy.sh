#!/usr/bin/env bash
# Runs a command with cdk8s's Go binding served from a local, file-based module proxy in front of
# the machine's own: scripts/with-local-go-proxy.sh <command> [args...] (projen's package:go and
# test:go run it; it needs `npm ci` first, for jsii-pacmak and cdk8s in node_modules).
#
# The Go module proxy this project builds with does not serve github.com/cdk8s-team/cdk8s-core-go,
# which the Go package of this library requires. That module is what jsii-pacmak generates from the
# cdk8s npm package, so it is generated here the same way, from the cdk8s in node_modules, and
# served as that version. The devDependency is pinned to the minimum of the peer dependency range
# (2.70.0), which is the version the generated go.mod requires. Everything else still comes from
# the machine's proxy, checked against the checksum database; only this one module is exempt from
# it (GONOSUMDB), since its hash is local.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module="github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
proxy="$root/build/go-proxy"
version="v$(node -p "require('$root/node_modules/cdk8s/package.json').version")"

generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
(cd "$root" && node_modules/.bin/jsii-pacmak --code-only --target go --outdir "$generated" node_modules/cdk8s)
rm -rf "$proxy"
(cd "$root/scripts/go-module-proxy" && go run . -dir "$generated/go/cdk8s" -version "$version" -out "$proxy")

# Go never downloads a version it has cached again: drop the cached copy of an earlier generation
# (the module cache is read-only), so that every run uses what was generated now.
cache="$(go env GOMODCACHE)"
if [ -d "$cache/$module@$version" ]; then
  chmod -R u+w "$cache/$module@$version"
  rm -rf "$cache/$module@$version"
fi
rm -f "$cache/cache/download/$module/@v/$version".*

export GOPROXY="file://$proxy,$(go env GOPROXY)"
export GONOSUMDB="github.com/cdk8s-team/cdk8s-core-go${GONOSUMDB:+,$GONOSUMDB}"
exec "$@"
