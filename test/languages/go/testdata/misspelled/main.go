// A struct literal with a misspelled field, which must not compile: TestMisspelledFieldDoesNotCompile
// builds this package and reads the compiler's error (go vet ./... skips testdata/).
package main

import (
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-admission/cdk8s-admission-go/cdk8sadmission"
)

func main() {
	_ = cdk8sadmission.Validation{Expression: jsii.String("true"), Mesage: jsii.String("m")}
}
