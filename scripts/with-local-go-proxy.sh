#!/usr/bin/env bash
# Runs a command with cdk8s's Go binding served from a local, file-based module proxy in front of
# the machine's own.
#
# The Go module proxy this project builds with does not serve github.com/cdk8s-team/cdk8s-core-go,
# which the Go package of this library requires. That module is what jsii-pacmak generates from the
# cdk8s npm package, so it is generated here the same way, from the cdk8s in node_modules (the
# version the library is built and tested with, its peer dependency's minimum), and served as that
# version. Everything else still comes from the machine's proxy, checked against the checksum
# database; only this one module is exempt from it (GONOSUMDB), since its hash is local.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
proxy="$root/build/go-proxy"
version="v$(node -p "require('$root/node_modules/cdk8s/package.json').version")"

generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
(cd "$root" && jsii-pacmak --code-only --target go --outdir "$generated" node_modules/cdk8s)
rm -rf "$proxy"
(cd "$root/scripts/go-module-proxy" && go run . -dir "$generated/go/cdk8s" -version "$version" -out "$proxy")

GOPROXY="file://$proxy,$(go env GOPROXY)" GONOSUMDB="github.com/cdk8s-team/cdk8s-core-go" "$@"
