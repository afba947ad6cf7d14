package main

import (
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-admission/cdk8s-admission-go/cdk8sadmission"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

// NewReplicaLimitChart returns a chart in which Deployments may not have more replicas than the
// limit in a ConfigMap.
func NewReplicaLimitChart(scope constructs.Construct, id string) cdk8s.Chart {
	chart := cdk8s.NewChart(scope, jsii.String(id), nil)

	// The parameter: a ConfigMap the platform team can edit without touching the policy.
	limits := cdk8s.NewApiObject(chart, jsii.String("limits"), &cdk8s.ApiObjectProps{
		ApiVersion: jsii.String("v1"),
		Kind:       jsii.String("ConfigMap"),
		Metadata:   &cdk8s.ApiObjectMetadata{Name: jsii.String("replica-limits"), Namespace: jsii.String("policy-params")},
	})
	limits.AddJsonPatch(cdk8s.JsonPatch_Add(jsii.String("/data"), map[string]string{"maxReplicas": "5"}))

	policy := cdk8sadmission.NewValidatingPolicy(chart, jsii.String("replica-limit"), &cdk8sadmission.ValidatingPolicyProps{
		Name: jsii.String("replica-limit"),
		ResourceRules: &[]*cdk8sadmission.ResourceRule{
			cdk8sadmission.AdmissionResource_DEPLOYMENTS().Rule(cdk8sadmission.Operation_CREATE, cdk8sadmission.Operation_UPDATE),
		},
		ParamKind: &cdk8sadmission.ParamKind{ApiVersion: jsii.String("v1"), Kind: jsii.String("ConfigMap")},
		Variables: &[]*cdk8sadmission.Variable{
			{Name: jsii.String("maxReplicas"), Expression: jsii.String("int(params.data.maxReplicas)")},
		},
		Validations: &[]*cdk8sadmission.Validation{{
			Expression:        jsii.String("object.spec.replicas <= variables.maxReplicas"),
			MessageExpression: jsii.String("'replicas must be at most ' + string(variables.maxReplicas)"),
			Reason:            cdk8sadmission.ValidationReason_INVALID,
		}},
	})
	policy.AddMatchCondition(&cdk8sadmission.MatchCondition{
		Name:       jsii.String("not-kube-system"),
		Expression: jsii.String("request.namespace != 'kube-system'"),
	})

	policy.WithBinding(jsii.String("replica-limit-binding"), &cdk8sadmission.ValidatingPolicyBindingOptions{
		Name:              jsii.String("replica-limit"),
		ValidationActions: &[]cdk8sadmission.ValidationAction{cdk8sadmission.ValidationAction_DENY},
		ParamRef: &cdk8sadmission.ParamRef{
			Name:                    jsii.String("replica-limits"),
			Namespace:               jsii.String("policy-params"),
			ParameterNotFoundAction: cdk8sadmission.ParameterNotFoundAction_DENY,
		},
	})
	return chart
}

func main() {
	app := cdk8s.NewApp(nil)
	NewReplicaLimitChart(app, "admission")
	app.Synth()
}
