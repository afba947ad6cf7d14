module github.com/cdk8s-admission/cdk8s-admission/scripts/go-module-proxy

go 1.26.0

require golang.org/x/mod v0.43.0
