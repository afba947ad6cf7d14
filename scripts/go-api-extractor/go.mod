module github.com/cdk8s-admission/cdk8s-admission/scripts/go-api-extractor

go 1.26.0
