package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	celopenapi "k8s.io/apiserver/pkg/cel/openapi"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	endpointsopenapi "k8s.io/apiserver/pkg/endpoints/openapi"
	k8sscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/validation/spec"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// celTypeTable is the CEL type of every built-in kind as kube-controller-manager's policy type
// checker declares `object` for it: the schema from the generated OpenAPI definitions (the
// resolver it uses), converted by common.SchemaDeclType. Types are shared by content: an id is a
// hash of the type's shape, so the table stays small although every kind's tree is expanded.
type celTypeTable struct {
	Kinds map[string]string         `json:"kinds"`
	Types map[string]map[string]any `json:"types"`
}

// dumpCelTypes prints the table as JSON. The CEL types suite compares it with the types the
// library builds from schemas/kubernetes.json.
func dumpCelTypes() error {
	defs := generatedopenapi.GetOpenAPIDefinitions(spec.MustCreateRef)
	res := resolver.NewDefinitionsSchemaResolver(generatedopenapi.GetOpenAPIDefinitions, k8sscheme.Scheme, scheme.Scheme)
	namer := endpointsopenapi.NewDefinitionNamer(k8sscheme.Scheme, scheme.Scheme)
	table := celTypeTable{Kinds: map[string]string{}, Types: map[string]map[string]any{}}
	for name := range defs {
		_, ext := namer.GetDefinitionName(name)
		for _, gvk := range gvksOf(ext) {
			s, err := res.ResolveSchema(gvk)
			if err != nil {
				return fmt.Errorf("%v: %w", gvk, err)
			}
			t := common.SchemaDeclType(&celopenapi.Schema{Schema: s}, true)
			key := gvk.Group + "/" + gvk.Version + "/" + gvk.Kind
			table.Kinds[key] = typeID(t, table.Types)
		}
	}
	data, err := json.Marshal(table)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(os.Stdout, string(data))
	return err
}

func gvksOf(ext spec.Extensions) []schema.GroupVersionKind {
	list, _ := ext["x-kubernetes-group-version-kind"].([]any)
	var out []schema.GroupVersionKind
	for _, item := range list {
		m, _ := item.(map[string]any)
		g, _ := m["group"].(string)
		v, _ := m["version"].(string)
		k, _ := m["kind"].(string)
		out = append(out, schema.GroupVersionKind{Group: g, Version: v, Kind: k})
	}
	return out
}

// typeID records t (and what it holds) in types and returns its id; "none" for a schema CEL
// does not expose (nil).
func typeID(t *apiservercel.DeclType, types map[string]map[string]any) string {
	if t == nil {
		return "none"
	}
	var entry map[string]any
	switch {
	case t.IsObject():
		fields := map[string]any{}
		names := make([]string, 0, len(t.Fields))
		for name := range t.Fields {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fields[name] = typeID(t.Fields[name].Type, types)
		}
		entry = map[string]any{"object": fields}
	case t.IsList():
		entry = map[string]any{"list": typeID(t.ElemType, types)}
	case t.IsMap():
		entry = map[string]any{"map": typeID(t.ElemType, types), "key": t.KeyType.CelType().String()}
	default:
		entry = map[string]any{"simple": t.CelType().String()}
	}
	return record(entry, types)
}

func record(entry map[string]any, types map[string]map[string]any) string {
	data, _ := json.Marshal(entry) // map keys are sorted by encoding/json
	sum := sha256.Sum256(data)
	id := strings.ToLower(hex.EncodeToString(sum[:6]))
	types[id] = entry
	return id
}
