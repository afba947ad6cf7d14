module example.com/admission-policies

go 1.26.0

require (
	github.com/aws/constructs-go/constructs/v10 v10.3.0
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-admission/cdk8s-admission-go/cdk8sadmission v0.0.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.0
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/yuin/goldmark v1.7.16 // indirect
	golang.org/x/lint v0.0.0-20241112194109-818c5a804067 // indirect
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/telemetry v0.0.0-20260811182544-a038080d80e5 // indirect
	golang.org/x/tools v0.49.0 // indirect
	golang.org/x/tools/cmd/godoc v0.1.0-deprecated // indirect
	golang.org/x/tools/godoc v0.1.0-deprecated // indirect
)

// The locally built package (`npx projen package:go`): not published yet.
replace github.com/cdk8s-admission/cdk8s-admission-go/cdk8sadmission => ../../../dist/go/cdk8sadmission
