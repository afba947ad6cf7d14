// cdk8s-admission used from Go, as a user of the Go module writes it (go test).
package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-admission/cdk8s-admission-go/cdk8sadmission"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

type object = map[string]interface{}

// newPodLabelsChart: a MutatingPolicy that labels pods with their team.
func newPodLabelsChart(scope constructs.Construct, id string) cdk8s.Chart {
	chart := cdk8s.NewChart(scope, jsii.String(id), nil)
	cdk8sadmission.NewMutatingPolicy(chart, jsii.String("team-label"), &cdk8sadmission.MutatingPolicyProps{
		Name:          jsii.String("team-label"),
		ResourceRules: &[]*cdk8sadmission.ResourceRule{cdk8sadmission.AdmissionResource_PODS().Rule(cdk8sadmission.Operation_CREATE)},
		Mutations: &[]cdk8sadmission.Mutation{
			cdk8sadmission.Mutation_ApplyConfiguration(jsii.String(`Object{metadata: Object.metadata{labels: {"team": "shop"}}}`)),
		},
	}).WithBinding(jsii.String("team-label-binding"), &cdk8sadmission.MutatingPolicyBindingOptions{Name: jsii.String("team-label")})
	return chart
}

// newWebhookChart: a webhook server's Service, and the ValidatingWebhookConfiguration that calls it.
func newWebhookChart(scope constructs.Construct, id string, caPem string) cdk8s.Chart {
	chart := cdk8s.NewChart(scope, jsii.String(id), &cdk8s.ChartProps{Namespace: jsii.String("hooks")})
	service := cdk8s.NewApiObject(chart, jsii.String("service"), &cdk8s.ApiObjectProps{
		ApiVersion: jsii.String("v1"),
		Kind:       jsii.String("Service"),
		Metadata:   &cdk8s.ApiObjectMetadata{Name: jsii.String("policy-webhook")},
	})
	service.AddJsonPatch(cdk8s.JsonPatch_Add(jsii.String("/spec"), object{"ports": []object{{"name": "https", "port": 443, "targetPort": 9443}}}))
	cdk8sadmission.NewValidatingWebhookConfiguration(chart, jsii.String("validating"), &cdk8sadmission.ValidatingWebhookConfigurationProps{
		Name:     jsii.String("policy-webhook"),
		CaBundle: cdk8sadmission.CaBundle_FromPem(jsii.String(caPem)),
		Webhooks: &[]cdk8sadmission.Webhook{cdk8sadmission.Webhook_ForService(service, &cdk8sadmission.WebhookOptions{
			Name:          jsii.String("validate.ingresses.example.com"),
			Path:          jsii.String("/validate"),
			Rules:         &[]*cdk8sadmission.ResourceRule{cdk8sadmission.AdmissionResource_INGRESSES().Rule(cdk8sadmission.Operation_CREATE, cdk8sadmission.Operation_UPDATE)},
			FailurePolicy: cdk8sadmission.FailurePolicy_IGNORE,
		})},
	})
	return chart
}

func TestGettingStartedSynthesizesThePolicyItsBindingAndTheParam(t *testing.T) {
	manifests := byKind(cdk8s.Testing_Synth(NewReplicaLimitChart(cdk8s.Testing_App(nil), "admission")))
	expectEqual(t, manifests["ConfigMap"]["data"], object{"maxReplicas": "5"})

	policy := manifests["ValidatingAdmissionPolicy"]
	expectEqual(t, policy["apiVersion"], "admissionregistration.k8s.io/v1")
	expectEqual(t, policy["metadata"], object{"name": "replica-limit"})
	spec := policy["spec"].(object)
	expectEqual(t, spec["failurePolicy"], "Fail")
	expectEqual(t, spec["matchConstraints"].(object)["resourceRules"], []interface{}{object{
		"apiGroups": []interface{}{"apps"}, "apiVersions": []interface{}{"v1"}, "resources": []interface{}{"deployments"},
		"operations": []interface{}{"CREATE", "UPDATE"}, "scope": "Namespaced",
	}})
	expectEqual(t, spec["paramKind"], object{"apiVersion": "v1", "kind": "ConfigMap"})
	expectEqual(t, spec["variables"], []interface{}{object{"name": "maxReplicas", "expression": "int(params.data.maxReplicas)"}})
	expectEqual(t, spec["validations"], []interface{}{object{
		"expression":        "object.spec.replicas <= variables.maxReplicas",
		"messageExpression": "'replicas must be at most ' + string(variables.maxReplicas)",
		"reason":            "Invalid",
	}})
	expectEqual(t, spec["matchConditions"], []interface{}{object{"name": "not-kube-system", "expression": "request.namespace != 'kube-system'"}})

	expectEqual(t, manifests["ValidatingAdmissionPolicyBinding"]["spec"], object{
		"policyName":        "replica-limit",
		"validationActions": []interface{}{"Deny"},
		"paramRef":          object{"name": "replica-limits", "namespace": "policy-params", "parameterNotFoundAction": "Deny"},
	})
}

func TestGettingStartedRunsAsAProgram(t *testing.T) {
	// In a process of its own: the jsii runtime's Node.js process keeps the directory it started in.
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "app"), ".")
	if output, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, output)
	}
	run := exec.Command(filepath.Join(dir, "app"))
	run.Dir = dir
	if output, err := run.CombinedOutput(); err != nil {
		t.Fatalf("the program failed: %v\n%s", err, output)
	}
	written, err := os.ReadFile(filepath.Join(dir, "dist", "admission.k8s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "kind: ValidatingAdmissionPolicyBinding") {
		t.Errorf("dist/admission.k8s.yaml has no binding:\n%s", written)
	}
}

func TestMutatingPolicyAndBinding(t *testing.T) {
	manifests := byKind(cdk8s.Testing_Synth(newPodLabelsChart(cdk8s.Testing_App(nil), "labels")))
	spec := manifests["MutatingAdmissionPolicy"]["spec"].(object)
	expectEqual(t, spec["mutations"], []interface{}{object{
		"patchType":          "ApplyConfiguration",
		"applyConfiguration": object{"expression": `Object{metadata: Object.metadata{labels: {"team": "shop"}}}`},
	}})
	expectEqual(t, spec["reinvocationPolicy"], "Never")
	expectEqual(t, manifests["MutatingAdmissionPolicyBinding"]["spec"], object{"policyName": "team-label"})
}

func TestWebhookConfigurationForAServiceWithACaBundle(t *testing.T) {
	caPem := readFixture(t, "ca.pem")
	configuration := byKind(cdk8s.Testing_Synth(newWebhookChart(cdk8s.Testing_App(nil), "webhooks", caPem)))["ValidatingWebhookConfiguration"]
	if _, found := configuration["metadata"].(object)["namespace"]; found {
		t.Errorf("a cluster-scoped configuration has a namespace: %v", configuration["metadata"])
	}
	webhooks := configuration["webhooks"].([]interface{})
	expectEqual(t, len(webhooks), 1)
	webhook := webhooks[0].(object)
	expectEqual(t, webhook["name"], "validate.ingresses.example.com")
	clientConfig := webhook["clientConfig"].(object)
	expectEqual(t, clientConfig["service"], object{"name": "policy-webhook", "namespace": "hooks", "path": "/validate", "port": float64(443)})
	caBundle, err := base64.StdEncoding.DecodeString(clientConfig["caBundle"].(string))
	if err != nil {
		t.Fatal(err)
	}
	expectEqual(t, string(caBundle), caPem)
	expectEqual(t, webhook["rules"], []interface{}{object{
		"apiGroups": []interface{}{"networking.k8s.io"}, "apiVersions": []interface{}{"v1"}, "resources": []interface{}{"ingresses"},
		"operations": []interface{}{"CREATE", "UPDATE"}, "scope": "Namespaced",
	}})
	expectEqual(t, webhook["failurePolicy"], "Ignore")
	expectEqual(t, webhook["sideEffects"], "None")
	expectEqual(t, webhook["admissionReviewVersions"], []interface{}{"v1"})
}

func TestBadCelFailsSynthNamingTheConstructAndTheFieldPath(t *testing.T) {
	chart := cdk8s.NewChart(cdk8s.Testing_App(nil), jsii.String("bad"), nil)
	cdk8sadmission.NewValidatingPolicy(chart, jsii.String("typo"), &cdk8sadmission.ValidatingPolicyProps{
		ResourceRules: &[]*cdk8sadmission.ResourceRule{cdk8sadmission.AdmissionResource_PODS().Rule()},
		Validations:   &[]*cdk8sadmission.Validation{{Expression: jsii.String("object.spec.containers.all(c, c.image.startsWith('registry/')")}},
	})
	message := panicMessage(func() { cdk8s.Testing_Synth(chart) })
	expectContains(t, message, "[bad/typo] spec.validations[0].expression: Invalid value")
	expectContains(t, message, "compilation failed")
}

func TestErrorsKeepTheirMessageThroughTheJsiiRuntime(t *testing.T) {
	chart := cdk8s.NewChart(cdk8s.Testing_App(nil), jsii.String("bad"), nil)
	policy := cdk8sadmission.NewValidatingPolicy(chart, jsii.String("p"), &cdk8sadmission.ValidatingPolicyProps{
		ResourceRules: &[]*cdk8sadmission.ResourceRule{cdk8sadmission.AdmissionResource_PODS().Rule()},
		Validations:   &[]*cdk8sadmission.Validation{{Expression: jsii.String("true")}},
	})
	policy.WithBinding(jsii.String("b"), &cdk8sadmission.ValidatingPolicyBindingOptions{
		ValidationActions: &[]cdk8sadmission.ValidationAction{cdk8sadmission.ValidationAction_DENY, cdk8sadmission.ValidationAction_WARN},
	})
	message := panicMessage(func() { cdk8s.Testing_Synth(chart) })
	expectContains(t, message, "[bad/b] spec.validationActions: ")
	expectContains(t, message, "must not contain both Deny and Warn")

	expectContains(t, panicMessage(func() { cdk8sadmission.KubernetesVersion_Of(jsii.String("1.27")) }), "Kubernetes 1.27 is not supported")
}

func TestPolicyTesterDecisions(t *testing.T) {
	tester := cdk8sadmission.PolicyTester_FromChart(NewReplicaLimitChart(cdk8s.Testing_App(nil), "admission"), nil)
	if !*tester.Review(create(deployment(5))).Allowed {
		t.Error("5 replicas denied")
	}

	denied := tester.Review(create(deployment(6)))
	if *denied.Allowed {
		t.Fatal("6 replicas admitted")
	}
	var messages []string
	for _, denial := range *denied.Denials {
		messages = append(messages, *denial.Message)
	}
	expectEqual(t, messages, []string{"ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: replicas must be at most 5"})
	expectEqual(t, *(*denied.Denials)[0].Reason, "Invalid")
	expectEqual(t, *(*denied.Denials)[0].Code, float64(422))

	scaleUp := &cdk8sadmission.AdmissionRequest{Operation: cdk8sadmission.Operation_UPDATE, Object: deployment(6), OldObject: deployment(5)}
	if *tester.Review(scaleUp).Allowed {
		t.Error("a scale-up to 6 replicas admitted")
	}

	system := deployment(50)
	system["metadata"] = object{"name": "coredns", "namespace": "kube-system"}
	update := &cdk8sadmission.AdmissionRequest{Operation: cdk8sadmission.Operation_UPDATE, Object: system, OldObject: system}
	if !*tester.Review(update).Allowed {
		t.Error("kube-system denied")
	}
}

func TestPolicyTesterAssertionsExplanationsAndCoverage(t *testing.T) {
	tester := cdk8sadmission.PolicyTester_FromChart(NewReplicaLimitChart(cdk8s.Testing_App(nil), "admission"),
		&cdk8sadmission.PolicyTesterOptions{Coverage: jsii.Bool(true)})
	tooMany := create(deployment(6))
	denied := tester.AssertDenied(tooMany, &cdk8sadmission.DenialExpectation{Policy: jsii.String("replica-limit"), Message: jsii.String("at most 5"), Code: jsii.Number(422)})
	if *denied.Allowed {
		t.Fatal("6 replicas admitted")
	}
	tester.AssertAllowed(create(deployment(5)))
	tester.AssertMatchedBy(tooMany, jsii.String("replica-limit"), nil)

	// A failing assertion panics with the explanation: the values of the expression that was false.
	failed := panicMessage(func() { tester.AssertAllowed(tooMany) })
	expectContains(t, failed, "expected the request to be allowed, but it was denied")
	expectContains(t, failed, "6 <= 5 -> false")
	expectContains(t, *tester.Explain(tooMany), "object.spec.replicas <= variables.maxReplicas -> false")

	policies := *tester.Coverage().Policies()
	expectEqual(t, len(policies), 1)
	expectEqual(t, *policies[0].Validations.Covered, float64(2))
	global := &cdk8sadmission.CoverageThresholds{Global: &cdk8sadmission.CoverageThreshold{Validations: jsii.Number(100)}}
	expectEqual(t, len(*tester.Coverage().ThresholdFailures(global)), 0)
	unknown := &cdk8sadmission.CoverageThresholds{Policies: &map[string]*cdk8sadmission.CoverageThreshold{"replica-limits": {Bindings: jsii.Number(100)}}}
	expectContains(t, panicMessage(func() { tester.Coverage().ThresholdFailures(unknown) }), "names 'replica-limits', which the report does not have")
}

func TestPolicyTesterMutatedObject(t *testing.T) {
	tester := cdk8sadmission.PolicyTester_FromChart(newPodLabelsChart(cdk8s.Testing_App(nil), "labels"), nil)
	podSpec := object{"containers": []interface{}{object{"name": "web", "image": "shop/web:1.2.3"}}}
	pod := object{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": object{"name": "web", "namespace": "shop", "labels": object{"app": "web"}},
		"spec":     podSpec,
	}
	result := tester.Review(create(pod))
	if !*result.Allowed {
		t.Fatal("pod denied")
	}
	patched := result.PatchedObject.(object)
	expectEqual(t, patched["metadata"].(object)["labels"], object{"app": "web", "team": "shop"})
	// Defaulted as a cluster defaults it before and after each mutation.
	spec := patched["spec"].(object)
	expectEqual(t, spec["containers"].([]interface{})[0].(object)["image"], "shop/web:1.2.3")
	expectEqual(t, spec["restartPolicy"], "Always")

	untouched := cdk8sadmission.PolicyTester_FromChart(NewReplicaLimitChart(cdk8s.Testing_App(nil), "admission"), nil).Review(create(deployment(1)))
	expectEqual(t, untouched.PatchedObject, nil)
}

func TestMutatingWebhookConfigurationForAUrl(t *testing.T) {
	chart := cdk8s.NewChart(cdk8s.Testing_App(nil), jsii.String("hooks"), nil)
	cdk8sadmission.NewMutatingWebhookConfiguration(chart, jsii.String("mutating"), &cdk8sadmission.MutatingWebhookConfigurationProps{
		Name:     jsii.String("defaults"),
		CaBundle: cdk8sadmission.CaBundle_FromPem(jsii.String(readFixture(t, "ca.pem"))),
		Webhooks: &[]cdk8sadmission.Webhook{cdk8sadmission.Webhook_ForUrl(jsii.String("https://hooks.example.com/mutate"), &cdk8sadmission.WebhookOptions{
			Name:  jsii.String("default.jobs.example.com"),
			Rules: &[]*cdk8sadmission.ResourceRule{cdk8sadmission.AdmissionResource_JOBS().Rule(cdk8sadmission.Operation_CREATE)},
		})},
	})
	manifests := *cdk8s.Testing_Synth(chart)
	expectEqual(t, len(manifests), 1)
	configuration := manifests[0].(object)
	expectEqual(t, configuration["kind"], "MutatingWebhookConfiguration")
	webhook := configuration["webhooks"].([]interface{})[0].(object)
	expectEqual(t, webhook["clientConfig"].(object)["url"], "https://hooks.example.com/mutate")
	expectEqual(t, webhook["reinvocationPolicy"], "Never")
	expectEqual(t, webhook["namespaceSelector"], object{"matchExpressions": []interface{}{object{
		"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": []interface{}{"kube-system"},
	}}})
}

func TestManifestValidatorOnManifestsFromElsewhere(t *testing.T) {
	configMap := object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": object{"name": "settings"}}
	binding := object{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
		"metadata": object{"name": "b"},
		"spec":     object{"policyName": "p", "validationActions": []string{"Deny", "Warn"}},
	}
	violations := *cdk8sadmission.ManifestValidator_ValidateAll(&[]interface{}{configMap, binding}, nil)
	expectEqual(t, len(violations), 1)
	violation := violations[0]
	expectEqual(t, violation.Severity, cdk8sadmission.ViolationSeverity_ERROR)
	expectEqual(t, *violation.Path, "spec.validationActions")
	expectEqual(t, *violation.ManifestIndex, float64(1))
	expectContains(t, *violation.Message, "must not contain both Deny and Warn")
}

func TestPolicyTesterFromYamlWithTheRequestingUser(t *testing.T) {
	tester := cdk8sadmission.PolicyTester_FromYaml(jsii.String(readFixture(t, "no-contractor-pods.yaml")), nil)
	pod := object{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": object{"name": "web", "namespace": "shop"},
		"spec":     object{"containers": []interface{}{object{"name": "web", "image": "shop/web:1.2.3"}}},
	}
	byStaff := &cdk8sadmission.AdmissionRequest{Operation: cdk8sadmission.Operation_CREATE, Object: pod,
		UserInfo: &cdk8sadmission.UserInfo{Username: jsii.String("alice"), Groups: jsii.Strings("staff")}}
	if !*tester.Review(byStaff).Allowed {
		t.Error("a pod by staff denied")
	}
	byContractor := &cdk8sadmission.AdmissionRequest{Operation: cdk8sadmission.Operation_CREATE, Object: pod,
		UserInfo: &cdk8sadmission.UserInfo{Username: jsii.String("mallory"), Groups: jsii.Strings("contractors")}}
	var messages []string
	for _, denial := range *tester.Review(byContractor).Denials {
		messages = append(messages, *denial.Message)
	}
	expectEqual(t, messages, []string{"ValidatingAdmissionPolicy 'no-contractor-pods' with binding 'no-contractor-pods' denied request: contractors may not create pods"})
}

func create(obj object) *cdk8sadmission.AdmissionRequest {
	return &cdk8sadmission.AdmissionRequest{Operation: cdk8sadmission.Operation_CREATE, Object: obj}
}

func deployment(replicas int) object {
	return object{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": object{"name": "web", "namespace": "shop"},
		"spec":     object{"replicas": replicas},
	}
}

func byKind(manifests *[]interface{}) map[string]object {
	kinds := map[string]object{}
	for _, manifest := range *manifests {
		kinds[manifest.(object)["kind"].(string)] = manifest.(object)
	}
	return kinds
}

// panicMessage runs f and returns the message of the error it panics with: the jsii runtime
// turns a JavaScript exception into a panic.
func panicMessage(f func()) (message string) {
	defer func() {
		if r := recover(); r != nil {
			message = fmt.Sprint(r)
		}
	}()
	f()
	return "(no panic)"
}

func readFixture(t *testing.T, name string) string {
	content, err := os.ReadFile(filepath.Join("..", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(content)
}

func expectEqual(t *testing.T, got, want interface{}) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func expectContains(t *testing.T, text, part string) {
	t.Helper()
	if !strings.Contains(text, part) {
		t.Errorf("%q does not contain %q", text, part)
	}
}

// Where TypeScript and JavaScript users get "did you mean" for an unknown key, a Go user cannot
// write one: a misspelled field of a struct is a compile error, before any call into jsii.
func TestMisspelledFieldDoesNotCompile(t *testing.T) {
	out, err := exec.Command("go", "build", "-o", os.DevNull, "./testdata/misspelled").CombinedOutput()
	if err == nil {
		t.Fatal("a struct literal with the misspelled field Mesage compiled")
	}
	expectContains(t, string(out), "unknown field Mesage in struct literal of type cdk8sadmission.Validation")
}
