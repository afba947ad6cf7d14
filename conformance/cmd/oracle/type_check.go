package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	k8sscheme "k8s.io/client-go/kubernetes/scheme"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// typeCheckCase is one line of --type-check's input: an expression of a policy's validations,
// checked with `object` typed as one built-in kind (and `params` as another, if given).
type typeCheckCase struct {
	Kind       schema.GroupVersionKind  `json:"kind"`
	Params     *schema.GroupVersionKind `json:"params,omitempty"`
	Variables  []admissionv1.Variable   `json:"variables,omitempty"`
	Expression string                   `json:"expression"`
}

type typeCheckAnswer struct {
	// Issues is the type checker's text for the kind (empty: it checks), as the policy's status
	// would show it: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n | ...".
	Issues string `json:"issues"`
}

// runTypeChecks answers typeCheckCases read from stdin, one JSON line each, with the type checker
// kube-controller-manager runs on ValidatingAdmissionPolicies: the same schema resolver (the
// generated OpenAPI definitions of the built-in types) and TypeChecker.
func runTypeChecks() error {
	res := resolver.NewDefinitionsSchemaResolver(generatedopenapi.GetOpenAPIDefinitions, k8sscheme.Scheme, scheme.Scheme)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var c typeCheckCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			return fmt.Errorf("type check case: %w", err)
		}
		answer := typeCheckAnswer{Issues: typeCheck(res, c)}
		data, _ := json.Marshal(answer)
		fmt.Fprintln(out, string(data))
		out.Flush()
	}
	return in.Err()
}

func typeCheck(res resolver.SchemaResolver, c typeCheckCase) string {
	// One made-up resource per kind: the policy's rule names it, the mapper maps it to the kind.
	gvr := schema.GroupVersionResource{Group: c.Kind.Group, Version: c.Kind.Version, Resource: "typecheckedthings"}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.AddSpecific(c.Kind, gvr, gvr, meta.RESTScopeNamespace)
	policy := &admissionv1.ValidatingAdmissionPolicy{Spec: admissionv1.ValidatingAdmissionPolicySpec{
		MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
			RuleWithOperations: admissionv1.RuleWithOperations{
				Operations: []admissionv1.OperationType{admissionv1.Create},
				Rule:       admissionv1.Rule{APIGroups: []string{gvr.Group}, APIVersions: []string{gvr.Version}, Resources: []string{gvr.Resource}},
			},
		}}},
		Variables:   c.Variables,
		Validations: []admissionv1.Validation{{Expression: c.Expression}},
	}}
	if c.Params != nil {
		policy.Spec.ParamKind = &admissionv1.ParamKind{APIVersion: c.Params.GroupVersion().String(), Kind: c.Params.Kind}
	}
	checker := &validating.TypeChecker{SchemaResolver: res, RestMapper: mapper}
	for _, w := range checker.Check(policy) {
		if w.FieldRef == "spec.validations[0].expression" {
			return w.Warning
		}
	}
	return ""
}
