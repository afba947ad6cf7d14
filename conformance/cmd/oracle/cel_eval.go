package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// evalCase is one line of --cel-eval's input: an expression evaluated as a validating admission
// policy's expression is, with the policy's variables and the request's objects.
type evalCase struct {
	Expression      string            `json:"expression"`
	Variables       []evalVariable    `json:"variables,omitempty"`
	Object          json.RawMessage   `json:"object,omitempty"`
	OldObject       json.RawMessage   `json:"oldObject,omitempty"`
	Params          json.RawMessage   `json:"params,omitempty"`
	HasParams       bool              `json:"hasParams"`
	NamespaceObject *corev1.Namespace `json:"namespaceObject,omitempty"`
	Operation       string            `json:"operation"`
	Username        string            `json:"username"`
	Groups          []string          `json:"groups,omitempty"`
	Resource        string            `json:"resource"`
}

type evalVariable struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}

// evalAnswer: the compile error, or the value (see describe) or the runtime error, and the cost
// the evaluation took from the budget (variables it read included).
type evalAnswer struct {
	CompileError string `json:"compileError,omitempty"`
	Value        any    `json:"value,omitempty"`
	Error        string `json:"error,omitempty"`
	Cost         int64  `json:"cost"`
}

type accessor struct{ expression string }

func (a accessor) GetExpression() string    { return a.expression }
func (a accessor) ReturnTypes() []*cel.Type { return []*cel.Type{cel.AnyType} }

type namedAccessor struct {
	accessor
	name string
}

func (a namedAccessor) GetName() string { return a.name }

// noOpinion is an authorizer with no opinion on anything, as PolicyTester's is without permissions.
type noOpinion struct{}

func (noOpinion) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionNoOpinion, "no PolicyTester permission allows it", nil
}

// runEvaluations answers evalCases read from stdin, one JSON line each, evaluated as the
// validating admission policy plugin evaluates a policy's validations: the composited compiler
// over the apiserver's environment for stored expressions at its own version, the activation
// built from the request, and the runtime cost budget.
func runEvaluations() error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var c evalCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			return fmt.Errorf("evaluation case: %w", err)
		}
		answer, err := evaluate(c)
		if err != nil {
			return err
		}
		data, _ := json.Marshal(answer)
		fmt.Fprintln(out, string(data))
		out.Flush()
	}
	return in.Err()
}

const evalBudget = int64(10_000_000)

// compilers, by the variables and params they were made for: a compiler keeps its variables.
var compilers = map[string]*plugincel.CompositedCompiler{}

func compilerFor(c evalCase, options plugincel.OptionalVariableDeclarations) (*plugincel.CompositedCompiler, error) {
	key, _ := json.Marshal([]any{c.Variables, c.HasParams})
	if compiler, ok := compilers[string(key)]; ok {
		return compiler, nil
	}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(version.MajorMinor(1, 37)))
	if err != nil {
		return nil, err
	}
	variables := make([]plugincel.NamedExpressionAccessor, 0, len(c.Variables))
	for _, v := range c.Variables {
		variables = append(variables, namedAccessor{accessor{v.Expression}, v.Name})
	}
	compiler.CompileAndStoreVariables(variables, options, environment.StoredExpressions)
	compilers[string(key)] = compiler
	return compiler, nil
}

func evaluate(c evalCase) (evalAnswer, error) {
	options := plugincel.OptionalVariableDeclarations{HasParams: c.HasParams, HasAuthorizer: true}
	compiler, err := compilerFor(c, options)
	if err != nil {
		return evalAnswer{}, err
	}
	evaluator := compiler.CompileCondition([]plugincel.ExpressionAccessor{accessor{c.Expression}}, options, environment.StoredExpressions)
	if errs := evaluator.CompilationErrors(); len(errs) > 0 {
		return evalAnswer{CompileError: errs[0].Error()}, nil
	}
	objectMap, oldObjectMap, paramsMap := decoded(c.Object), decoded(c.OldObject), decoded(c.Params)
	gvr := schema.GroupVersionResource{Version: "v1", Resource: c.Resource}
	gvk := schema.GroupVersionKind{Version: "v1", Kind: kindOf(objectMap, oldObjectMap)}
	object, oldObject := asObject(objectMap), asObject(oldObjectMap)
	namespace, name := "", ""
	if objectMap != nil {
		u := unstructured.Unstructured{Object: objectMap}
		namespace, name = u.GetNamespace(), u.GetName()
	}
	userInfo := &user.DefaultInfo{Name: c.Username, Groups: c.Groups}
	attrs := admission.NewAttributesRecord(object, oldObject, gvk, namespace, name, gvr, "", admission.Operation(c.Operation), &metav1.CreateOptions{}, false, userInfo)
	versioned := &admission.VersionedAttributes{Attributes: attrs, VersionedKind: gvk, VersionedObject: admission.NewLazyObject(object), VersionedOldObject: admission.NewLazyObject(oldObject)}
	request := &admissionv1.AdmissionRequest{
		UID:             "eval",
		Kind:            metav1.GroupVersionKind{Version: gvk.Version, Kind: gvk.Kind},
		Resource:        metav1.GroupVersionResource{Version: gvr.Version, Resource: gvr.Resource},
		RequestKind:     &metav1.GroupVersionKind{Version: gvk.Version, Kind: gvk.Kind},
		RequestResource: &metav1.GroupVersionResource{Version: gvr.Version, Resource: gvr.Resource},
		Name:            name,
		Namespace:       namespace,
		Operation:       admissionv1.Operation(c.Operation),
		UserInfo:        authenticationv1.UserInfo{Username: c.Username, Groups: c.Groups},
	}
	var params runtime.Object
	if paramsMap != nil {
		params = &unstructured.Unstructured{Object: paramsMap}
	}
	ctx := compiler.CreateContext(context.Background())
	bindings := plugincel.OptionalVariableBindings{VersionedParams: params, Authorizer: noOpinion{}}
	results, remaining, err := evaluator.ForInput(ctx, versioned, request, bindings, c.NamespaceObject, evalBudget)
	if err != nil {
		return evalAnswer{Error: err.Error(), Cost: -1}, nil
	}
	answer := evalAnswer{Cost: evalBudget - remaining}
	if results[0].Error != nil {
		answer.Error = results[0].Error.Error()
	} else {
		answer.Value = describe(results[0].EvalResult)
	}
	return answer, nil
}

// decoded reads an object as the apiserver's unstructured objects hold it (integral numbers as int64).
func decoded(raw json.RawMessage) map[string]any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var out map[string]any
	if err := utiljson.Unmarshal(raw, &out); err != nil {
		return nil
	}
	return out
}

func asObject(o map[string]any) runtime.Object {
	if o == nil {
		return nil
	}
	return &unstructured.Unstructured{Object: o}
}

func kindOf(objects ...map[string]any) string {
	for _, o := range objects {
		if k, ok := o["kind"].(string); ok {
			return k
		}
	}
	return ""
}

// describe writes a CEL value with its type, so that values of different types never compare
// equal: {"int": "5"}, {"double": 0.5} or "NaN", {"list": [...]}, {"map": [[key, value], ...]}
// (sorted by the keys' JSON), {"type": "int"}, {"optional": value or null}, and the Kubernetes
// types by their text ({"net.IP": "10.0.0.1"}).
func describe(v ref.Val) any {
	switch x := v.(type) {
	case types.Bool:
		return map[string]any{"bool": bool(x)}
	case types.Int:
		return map[string]any{"int": strconv.FormatInt(int64(x), 10)}
	case types.Uint:
		return map[string]any{"uint": strconv.FormatUint(uint64(x), 10)}
	case types.Double:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			return map[string]any{"double": "NaN"}
		case math.IsInf(f, 1):
			return map[string]any{"double": "Infinity"}
		case math.IsInf(f, -1):
			return map[string]any{"double": "-Infinity"}
		}
		return map[string]any{"double": f}
	case types.String:
		return map[string]any{"string": string(x)}
	case types.Bytes:
		return map[string]any{"bytes": base64.StdEncoding.EncodeToString(x)}
	case types.Null:
		return map[string]any{"null": true}
	case types.Duration:
		return map[string]any{"duration": strconv.FormatInt(x.Duration.Nanoseconds(), 10)}
	case types.Timestamp:
		return map[string]any{"timestamp": x.Time.UTC().Format("2006-01-02T15:04:05.999999999Z07:00")}
	case *types.Optional:
		if !x.HasValue() {
			return map[string]any{"optional": nil}
		}
		return map[string]any{"optional": describe(x.GetValue())}
	case apiservercel.IP:
		return map[string]any{"net.IP": x.Addr.String()}
	case apiservercel.CIDR:
		return map[string]any{"net.CIDR": x.Prefix.String()}
	case apiservercel.URL:
		return map[string]any{"kubernetes.URL": urlParts(x.URL)}
	case apiservercel.Quantity:
		return map[string]any{"kubernetes.Quantity": quantityValue(x.Quantity)}
	case apiservercel.Semver:
		return map[string]any{"kubernetes.Semver": x.Version.String()}
	case apiservercel.Format:
		return map[string]any{"kubernetes.NamedFormat": strings.ToLower(x.Name)}
	// Some library functions return their values by pointer (Quantity's add and sub).
	case *apiservercel.Quantity:
		return map[string]any{"kubernetes.Quantity": quantityValue(x.Quantity)}
	case *apiservercel.URL:
		return map[string]any{"kubernetes.URL": urlParts(x.URL)}
	case *apiservercel.Semver:
		return map[string]any{"kubernetes.Semver": x.Version.String()}
	}
	if t, ok := v.(ref.Type); ok {
		return map[string]any{"type": t.TypeName()}
	}
	if lister, ok := v.(traits.Lister); ok {
		items := []any{}
		for it := lister.Iterator(); it.HasNext() == types.True; {
			items = append(items, describe(it.Next()))
		}
		return map[string]any{"list": items}
	}
	if mapper, ok := v.(traits.Mapper); ok {
		entries := [][2]any{}
		for it := mapper.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			entries = append(entries, [2]any{describe(k), describe(mapper.Get(k))})
		}
		sort.Slice(entries, func(i, j int) bool {
			a, _ := json.Marshal(entries[i][0])
			b, _ := json.Marshal(entries[j][0])
			return string(a) < string(b)
		})
		return map[string]any{"map": entries}
	}
	return map[string]any{"object": v.Type().TypeName()}
}

// quantityValue is a quantity's exact decimal value without trailing zeros: CEL cannot print a
// quantity, so the suite compares values, not the apiserver's chosen notation ("500m", "1e3").
func quantityValue(q *resource.Quantity) string {
	text := q.AsDec().String()
	if strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	if text == "-0" {
		return "0"
	}
	return text
}

// urlParts is what CEL can read of a URL (getScheme, getHost, getEscapedPath, getQuery), written
// as one text: the user information and the fragment have no getter.
func urlParts(u *url.URL) string {
	text := ""
	if u.Scheme != "" {
		text += u.Scheme + ":"
	}
	if u.Host != "" {
		text += "//" + u.Host
	}
	text += u.EscapedPath()
	if u.RawQuery != "" {
		text += "?" + u.RawQuery
	}
	return text
}
