// Command go-api-extractor reads the Go source of one Kubernetes release and prints, as JSON, what
// PolicyTester needs to treat a request object as that release's apiserver does before admission:
//
//   - "structs": the Go structs of the API types as encoding/json lays them out (JSON name,
//     omitempty, omitzero, inline, field type), keyed by OpenAPI definition name. Decoding a
//     request into these structs and encoding it again drops empty optional fields, writes
//     required ones and non-pointer structs, and leaves types with their own JSON encoding
//     (quantities, times, int-or-string) opaque.
//   - "defaulters": each kind's generated SetObjectDefaults_<Kind> (zz_generated.defaults.go),
//     translated statement by statement into steps: calls of hand-written SetDefaults_ functions
//     at a path, declarative defaults (a value when a field is nil or zero), guards and loops.
//   - "functions": a hash of every function in the defaults.go files, so that the TypeScript port
//     of the hand-written defaulters can tell which releases it matches.
//
// Usage (scripts/generate-resource-schemas.ts runs it per minor, on module directories that
// `go mod download` fetched):
//
//	go run . -kubernetes DIR -api DIR -apimachinery DIR -apiextensions DIR -aggregator DIR
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	roots := map[string]*string{
		"k8s.io/kubernetes/":              flag.String("kubernetes", "", "directory of the module k8s.io/kubernetes"),
		"k8s.io/api/":                     flag.String("api", "", "directory of the module k8s.io/api"),
		"k8s.io/apimachinery/":            flag.String("apimachinery", "", "directory of the module k8s.io/apimachinery"),
		"k8s.io/apiextensions-apiserver/": flag.String("apiextensions", "", "directory of the module k8s.io/apiextensions-apiserver"),
		"k8s.io/kube-aggregator/":         flag.String("aggregator", "", "directory of the module k8s.io/kube-aggregator"),
	}
	minor := flag.Int("minor", 0, "the release's minor version (37 for v1.37.2): feature gates are read at it")
	flag.Parse()
	x := &extractor{minor: *minor, roots: map[string]string{}, packages: map[string]*goPackage{}, structs: map[string][][3]string{}}
	for prefix, dir := range roots {
		if *dir == "" {
			fmt.Fprintln(os.Stderr, "usage: go-api-extractor -kubernetes DIR -api DIR -apimachinery DIR -apiextensions DIR -aggregator DIR")
			os.Exit(2)
		}
		x.roots[prefix] = *dir
	}
	out, err := x.run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-api-extractor:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "go-api-extractor:", err)
		os.Exit(1)
	}
}

// output is what the command prints.
type output struct {
	Structs    map[string][][3]string `json:"structs"`
	Defaulters map[string][]step      `json:"defaulters"`
	Functions  map[string]string      `json:"functions"`
	// FeatureGates holds the default of every Kubernetes feature gate at the release's own minor.
	FeatureGates map[string]bool `json:"featureGates"`
}

// step is one statement of a generated defaulter: exactly one of its forms is set.
//
//	{"call": "core/v1.SetDefaults_PodSpec", "path": [...]}     a hand-written defaulter, on the value at path
//	{"object": "<definition>", "path": [...]}                  another type's generated defaulter
//	{"default": [...], "value": v, "when": "nil"|"zero"}       a declarative default
//	{"if": [...], "then": [...]}                               steps when the value at path is set
//	{"each": [...], "do": [...]}                               steps for every item of the list at path
//
// Paths are JSON field names, relative to the value the enclosing loop is at (the object at the top).
type step map[string]any

type extractor struct {
	minor    int
	roots    map[string]string
	packages map[string]*goPackage
	structs  map[string][][3]string
}

type goPackage struct {
	path       string
	types      map[string]*typeDecl
	consts     map[string]constDecl
	marshalers map[string]bool
	files      []*fileContext
}

type fileContext struct {
	pkg     *goPackage
	file    *ast.File
	name    string
	imports map[string]string
}

type typeDecl struct {
	spec *ast.TypeSpec
	file *fileContext
}

type constDecl struct {
	value ast.Expr
	file  *fileContext
}

func (x *extractor) run() (*output, error) {
	out := &output{Structs: x.structs, Defaulters: map[string][]step{}, Functions: map[string]string{}}
	dirs, err := x.defaulterPackages()
	if err != nil {
		return nil, err
	}
	for _, importPath := range dirs {
		pkg, err := x.load(importPath)
		if err != nil {
			return nil, err
		}
		short := shortName(importPath)
		for _, f := range pkg.files {
			for _, decl := range f.file.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Recv != nil {
					continue
				}
				switch {
				case f.name == "zz_generated.defaults.go" && strings.HasPrefix(fd.Name.Name, "SetObjectDefaults_") && !strings.HasSuffix(fd.Name.Name, "List"):
					key, steps, err := x.translate(fd, f)
					if err != nil {
						return nil, fmt.Errorf("%s.%s: %w", importPath, fd.Name.Name, err)
					}
					if _, dup := out.Defaulters[key]; dup {
						return nil, fmt.Errorf("%s: two generated defaulters", key)
					}
					out.Defaulters[key] = steps
				case f.name == "defaults.go":
					out.Functions[short+"."+fd.Name.Name] = hash(fd)
				}
			}
		}
	}
	if err := x.addKinds(); err != nil {
		return nil, err
	}
	gates, err := x.featureGates()
	if err != nil {
		return nil, err
	}
	out.FeatureGates = gates
	// The Go field names were needed to read the defaulters' selectors only.
	for key, fields := range x.structs {
		for i := range fields {
			fields[i][1], _, _ = strings.Cut(fields[i][1], "|")
		}
		x.structs[key] = fields
	}
	return out, nil
}

// featureGates reads pkg/features (kube_features.go, versioned_kube_features.go): each gate's default at the release's minor,
// from the versioned specs (`{Version: version.MustParse("1.33"), Default: true, ...}`, the last
// one at or below the minor) or, in older releases, the one spec (`{Default: true, ...}`).
func (x *extractor) featureGates() (map[string]bool, error) {
	if x.minor == 0 {
		return nil, fmt.Errorf("-minor is required")
	}
	pkg, err := x.load("k8s.io/kubernetes/pkg/features")
	if err != nil {
		return nil, err
	}
	gates := map[string]bool{}
	for _, f := range pkg.files {
		for _, decl := range f.file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					continue
				}
				if name := vs.Names[0].Name; name != "defaultKubernetesFeatureGates" && name != "defaultVersionedKubernetesFeatureGates" {
					continue
				}
				lit, ok := vs.Values[0].(*ast.CompositeLit)
				if !ok {
					continue
				}
				for _, elt := range lit.Elts {
					kv := elt.(*ast.KeyValueExpr)
					key := ""
					switch k := kv.Key.(type) {
					case *ast.Ident:
						key = k.Name
					case *ast.SelectorExpr:
						key = k.Sel.Name
					}
					value, ok := x.gateDefault(kv.Value)
					if key != "" && ok {
						gates[key] = value
					}
				}
			}
		}
	}
	if len(gates) == 0 {
		return nil, fmt.Errorf("no feature gates found in pkg/features")
	}
	return gates, nil
}

func (x *extractor) gateDefault(e ast.Expr) (bool, bool) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false, false
	}
	fieldOf := func(spec *ast.CompositeLit, name string) ast.Expr {
		for _, elt := range spec.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdent(kv.Key, name) {
				return kv.Value
			}
		}
		return nil
	}
	if d := fieldOf(lit, "Default"); d != nil {
		return isIdent(d, "true"), true
	}
	found, value := false, false
	for _, elt := range lit.Elts {
		spec, ok := elt.(*ast.CompositeLit)
		if !ok {
			continue
		}
		call, ok := fieldOf(spec, "Version").(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		arg, ok := call.Args[0].(*ast.BasicLit)
		if !ok {
			continue
		}
		text, _ := strconv.Unquote(arg.Value)
		_, minorText, _ := strings.Cut(text, ".")
		minor, err := strconv.Atoi(minorText)
		if err != nil || minor > x.minor {
			continue
		}
		found, value = true, isIdent(fieldOf(spec, "Default"), "true")
	}
	return value, found
}

// addKinds records the structs of every kind of the API packages (a struct with an embedded
// TypeMeta and an ObjectMeta), defaulted or not: every request object is re-encoded.
func (x *extractor) addKinds() error {
	var packages []string
	for _, pattern := range []string{
		"k8s.io/api/*/*",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/*",
		"k8s.io/kube-aggregator/pkg/apis/apiregistration/*",
	} {
		prefix, dir := x.rootOf(pattern)
		matches, err := filepath.Glob(filepath.Join(dir, strings.TrimPrefix(pattern, prefix), "types.go"))
		if err != nil {
			return err
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(dir, filepath.Dir(m))
			packages = append(packages, prefix+filepath.ToSlash(rel))
		}
	}
	sort.Strings(packages)
	for _, importPath := range packages {
		pkg, err := x.load(importPath)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(pkg.types))
		for name := range pkg.types {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			st, ok := pkg.types[name].spec.Type.(*ast.StructType)
			if !ok || !isKind(st) {
				continue
			}
			if _, err := x.named(pkg, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// isKind: an embedded TypeMeta and a field of type ObjectMeta.
func isKind(st *ast.StructType) bool {
	typeMeta, objectMeta := false, false
	for _, f := range st.Fields.List {
		sel, ok := f.Type.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		typeMeta = typeMeta || (len(f.Names) == 0 && sel.Sel.Name == "TypeMeta")
		objectMeta = objectMeta || sel.Sel.Name == "ObjectMeta"
	}
	return typeMeta && objectMeta
}

// defaulterPackages lists the API packages that have generated defaulters.
func (x *extractor) defaulterPackages() ([]string, error) {
	var found []string
	for _, pattern := range []string{
		"k8s.io/kubernetes/pkg/apis/*/*",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/*",
		"k8s.io/kube-aggregator/pkg/apis/apiregistration/*",
	} {
		prefix, dir := x.rootOf(pattern)
		matches, err := filepath.Glob(filepath.Join(dir, strings.TrimPrefix(pattern, prefix), "zz_generated.defaults.go"))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(dir, filepath.Dir(m))
			found = append(found, prefix+filepath.ToSlash(rel))
		}
	}
	sort.Strings(found)
	return found, nil
}

func (x *extractor) rootOf(importPath string) (string, string) {
	for prefix, dir := range x.roots {
		if strings.HasPrefix(importPath, prefix) {
			return prefix, dir
		}
	}
	return "", ""
}

func (x *extractor) load(importPath string) (*goPackage, error) {
	if pkg, ok := x.packages[importPath]; ok {
		return pkg, nil
	}
	prefix, root := x.rootOf(importPath)
	if root == "" {
		return nil, fmt.Errorf("no module directory for package %s", importPath)
	}
	dir := filepath.Join(root, strings.TrimPrefix(importPath, prefix))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	pkg := &goPackage{path: importPath, types: map[string]*typeDecl{}, consts: map[string]constDecl{}, marshalers: map[string]bool{}}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ctx := &fileContext{pkg: pkg, file: file, name: name, imports: map[string]string{}}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			alias := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				alias = imp.Name.Name
			}
			ctx.imports[alias] = p
		}
		pkg.files = append(pkg.files, ctx)
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						pkg.types[s.Name.Name] = &typeDecl{spec: s, file: ctx}
					case *ast.ValueSpec:
						if d.Tok == token.CONST {
							for i, n := range s.Names {
								if i < len(s.Values) {
									pkg.consts[n.Name] = constDecl{value: s.Values[i], file: ctx}
								}
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "MarshalJSON" && len(d.Recv.List) == 1 {
					pkg.marshalers[receiverName(d.Recv.List[0].Type)] = true
				}
			}
		}
	}
	x.packages[importPath] = pkg
	return pkg, nil
}

func receiverName(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// definitionName is the OpenAPI definition name of a Go type: k8s.io/api/apps/v1.Deployment is
// io.k8s.api.apps.v1.Deployment.
func definitionName(importPath, name string) string {
	return "io.k8s." + strings.ReplaceAll(strings.TrimPrefix(importPath, "k8s.io/"), "/", ".") + "." + name
	// (every package read here is under k8s.io/)
}

// shortName names a defaulter package by its group and version: k8s.io/kubernetes/pkg/apis/core/v1 is core/v1.
func shortName(importPath string) string {
	if i := strings.Index(importPath, "/pkg/apis/"); i >= 0 {
		return importPath[i+len("/pkg/apis/"):]
	}
	return importPath
}

var basicTypes = map[string]string{
	"string": "string", "bool": "bool", "byte": "uint8", "int": "int", "int8": "int8", "int16": "int16", "int32": "int32",
	"int64": "int64", "uint": "uint", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
	"float32": "float32", "float64": "float64",
}

// typeRef writes a field's type: a basic type, "bytes", "*T", "[]T", "map[K]V", "any", or a
// definition name (a struct, or a type with its own JSON encoding). Named non-struct types are
// resolved to what they are defined as (core/v1 RestartPolicy is string).
func (x *extractor) typeRef(expr ast.Expr, f *fileContext) (string, error) {
	switch t := expr.(type) {
	case *ast.StarExpr:
		inner, err := x.typeRef(t.X, f)
		return "*" + inner, err
	case *ast.ArrayType:
		if t.Len != nil {
			return "", fmt.Errorf("fixed-size array in %s", f.pkg.path)
		}
		elem, err := x.typeRef(t.Elt, f)
		if elem == "uint8" {
			return "bytes", err
		}
		return "[]" + elem, err
	case *ast.MapType:
		key, err := x.typeRef(t.Key, f)
		if err != nil {
			return "", err
		}
		value, err := x.typeRef(t.Value, f)
		return "map[" + key + "]" + value, err
	case *ast.InterfaceType:
		return "any", nil
	case *ast.Ident:
		if b, ok := basicTypes[t.Name]; ok {
			return b, nil
		}
		return x.named(f.pkg, t.Name)
	case *ast.SelectorExpr:
		alias, ok := t.X.(*ast.Ident)
		if !ok {
			return "", fmt.Errorf("unexpected type selector in %s", f.pkg.path)
		}
		p, ok := f.imports[alias.Name]
		if !ok {
			return "", fmt.Errorf("unknown import %s in %s", alias.Name, f.pkg.path)
		}
		if p == "time" && t.Sel.Name == "Duration" {
			return "int64", nil
		}
		pkg, err := x.load(p)
		if err != nil {
			return "", err
		}
		return x.named(pkg, t.Sel.Name)
	}
	return "", fmt.Errorf("unexpected type expression %T in %s", expr, f.pkg.path)
}

func (x *extractor) named(pkg *goPackage, name string) (string, error) {
	key := definitionName(pkg.path, name)
	if pkg.marshalers[name] {
		return key, nil
	}
	decl, ok := pkg.types[name]
	if !ok {
		return "", fmt.Errorf("type %s not found", key)
	}
	st, ok := decl.spec.Type.(*ast.StructType)
	if !ok {
		return x.typeRef(decl.spec.Type, decl.file)
	}
	if _, done := x.structs[key]; !done {
		x.structs[key] = nil // placeholder: recursive types refer to themselves
		fields, err := x.fields(st, decl.file)
		if err != nil {
			return "", fmt.Errorf("%s: %w", key, err)
		}
		x.structs[key] = fields
	}
	return key, nil
}

// fields lists a struct's fields as [json name, flags, type]: flags hold e (omitempty), z
// (omitzero) and i (inline: an embedded struct whose fields are the struct's own in JSON).
func (x *extractor) fields(st *ast.StructType, f *fileContext) ([][3]string, error) {
	out := [][3]string{}
	for _, field := range st.Fields.List {
		tag := ""
		if field.Tag != nil {
			raw, _ := strconv.Unquote(field.Tag.Value)
			tag = reflectTag(raw, "json")
		}
		if tag == "-" {
			continue
		}
		parts := strings.Split(tag, ",")
		flags := ""
		for _, opt := range parts[1:] {
			switch opt {
			case "omitempty":
				flags += "e"
			case "omitzero":
				flags += "z"
			}
		}
		ref, err := x.typeRef(field.Type, f)
		if err != nil {
			return nil, err
		}
		names := []string{}
		for _, n := range field.Names {
			if n.IsExported() {
				names = append(names, n.Name)
			}
		}
		if len(field.Names) == 0 {
			if parts[0] == "" {
				flags += "i"
				out = append(out, [3]string{"", flags, ref})
				continue
			}
			names = []string{receiverName(field.Type)}
		}
		for _, n := range names {
			jsonName := parts[0]
			if jsonName == "" {
				jsonName = n
			}
			out = append(out, [3]string{jsonName, flags + "|" + n, ref})
		}
	}
	return out, nil
}

// reflectTag reads one key of a struct tag, as reflect.StructTag.Get does.
func reflectTag(tag, key string) string {
	for tag != "" {
		tag = strings.TrimLeft(tag, " ")
		i := strings.Index(tag, ":")
		if i <= 0 || i+1 >= len(tag) || tag[i+1] != '"' {
			return ""
		}
		name := tag[:i]
		rest := tag[i+1:]
		j := 1
		for j < len(rest) && rest[j] != '"' {
			if rest[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(rest) {
			return ""
		}
		value, err := strconv.Unquote(rest[:j+1])
		if err != nil {
			return ""
		}
		if name == key {
			return value
		}
		tag = rest[j+1:]
	}
	return ""
}

// cursor is the value a variable of a generated defaulter points at.
type cursor struct {
	name string
	typ  string
}

// translate turns SetObjectDefaults_<Kind>(in *T) into steps; the key is T's definition name.
func (x *extractor) translate(fd *ast.FuncDecl, f *fileContext) (string, []step, error) {
	params := fd.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 1 {
		return "", nil, fmt.Errorf("unexpected parameters")
	}
	typ, err := x.typeRef(params[0].Type, f)
	if err != nil {
		return "", nil, err
	}
	typ = strings.TrimPrefix(typ, "*")
	steps, err := x.block(fd.Body.List, cursor{name: params[0].Names[0].Name, typ: typ}, f)
	return typ, steps, err
}

func (x *extractor) block(stmts []ast.Stmt, c cursor, f *fileContext) ([]step, error) {
	out := []step{}
	for _, s := range stmts {
		st, err := x.statement(s, c, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source(s), err)
		}
		out = append(out, st)
	}
	return out, nil
}

func (x *extractor) statement(s ast.Stmt, c cursor, f *fileContext) (step, error) {
	switch st := s.(type) {
	case *ast.ExprStmt:
		call, ok := st.X.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return nil, fmt.Errorf("unexpected expression")
		}
		fn, err := functionName(call.Fun, f)
		if err != nil {
			return nil, err
		}
		path, typ, err := x.path(call.Args[0], c)
		if err != nil {
			return nil, err
		}
		if strings.Contains(fn, ".SetObjectDefaults_") {
			return step{"object": strings.TrimPrefix(typ, "*"), "path": path}, nil
		}
		return step{"call": fn, "path": path}, nil
	case *ast.IfStmt:
		return x.ifStatement(st, c, f)
	case *ast.RangeStmt:
		return x.loop(st, c, f)
	}
	return nil, fmt.Errorf("unexpected statement %T", s)
}

func (x *extractor) ifStatement(st *ast.IfStmt, c cursor, f *fileContext) (step, error) {
	if st.Else != nil || st.Init != nil {
		return nil, fmt.Errorf("unexpected if form")
	}
	cond, ok := st.Cond.(*ast.BinaryExpr)
	if !ok {
		return nil, fmt.Errorf("unexpected condition")
	}
	subject := cond.X
	if call, ok := subject.(*ast.CallExpr); ok && isIdent(call.Fun, "len") && len(call.Args) == 1 {
		subject = call.Args[0]
	}
	path, _, err := x.path(subject, c)
	if err != nil {
		return nil, err
	}
	if cond.Op == token.NEQ && isIdent(cond.Y, "nil") {
		then, err := x.block(st.Body.List, c, f)
		if err != nil {
			return nil, err
		}
		return step{"if": path, "then": then}, nil
	}
	if cond.Op != token.EQL {
		return nil, fmt.Errorf("unexpected operator %s", cond.Op)
	}
	when := "zero"
	if isIdent(cond.Y, "nil") {
		when = "nil"
	}
	value, err := x.assignedDefault(st.Body.List, f)
	if err != nil {
		return nil, err
	}
	return step{"default": path, "value": value, "when": when}, nil
}

// assignedDefault reads the value a declarative default's body assigns, in the forms
// defaulter-gen writes: `x = v`, `var p T = v; x = &p`, `p := T(v); x = &p`, and
// `if err := json.Unmarshal([]byte(`{...}`), &x); err != nil { panic(err) }`.
func (x *extractor) assignedDefault(body []ast.Stmt, f *fileContext) (any, error) {
	if len(body) == 1 {
		if ifs, ok := body[0].(*ast.IfStmt); ok {
			if init, ok := ifs.Init.(*ast.AssignStmt); ok && len(init.Rhs) == 1 {
				if call, ok := init.Rhs[0].(*ast.CallExpr); ok && len(call.Args) == 2 {
					if conv, ok := call.Args[0].(*ast.CallExpr); ok && len(conv.Args) == 1 {
						if lit, ok := conv.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							text, _ := strconv.Unquote(lit.Value)
							var v any
							if err := json.Unmarshal([]byte(text), &v); err != nil {
								return nil, err
							}
							return v, nil
						}
					}
				}
			}
		}
		if as, ok := body[0].(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
			return x.value(as.Rhs[0], f)
		}
	}
	if len(body) == 2 {
		switch first := body[0].(type) {
		case *ast.DeclStmt:
			vs := first.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
			return x.value(vs.Values[0], f)
		case *ast.AssignStmt:
			return x.value(first.Rhs[0], f)
		}
	}
	return nil, fmt.Errorf("unexpected default body")
}

// value evaluates a literal, a constant or a conversion of one.
func (x *extractor) value(e ast.Expr, f *fileContext) (any, error) {
	switch v := e.(type) {
	case *ast.BasicLit:
		switch v.Kind {
		case token.STRING:
			return strconv.Unquote(v.Value)
		case token.INT:
			return strconv.ParseInt(v.Value, 0, 64)
		case token.FLOAT:
			return strconv.ParseFloat(v.Value, 64)
		}
	case *ast.Ident:
		switch v.Name {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		if c, ok := f.pkg.consts[v.Name]; ok {
			return x.value(c.value, c.file)
		}
	case *ast.CallExpr:
		if len(v.Args) == 1 {
			return x.value(v.Args[0], f)
		}
	case *ast.SelectorExpr:
		if alias, ok := v.X.(*ast.Ident); ok {
			if p, ok := f.imports[alias.Name]; ok {
				pkg, err := x.load(p)
				if err != nil {
					return nil, err
				}
				if c, ok := pkg.consts[v.Sel.Name]; ok {
					return x.value(c.value, c.file)
				}
			}
		}
	case *ast.UnaryExpr:
		if v.Op == token.SUB {
			n, err := x.value(v.X, f)
			if i, ok := n.(int64); ok {
				return -i, err
			}
		}
	}
	return nil, fmt.Errorf("unexpected value %s", source(e))
}

// loop reads `for i := range X { a := &X[i]; ... }`.
func (x *extractor) loop(st *ast.RangeStmt, c cursor, f *fileContext) (step, error) {
	path, typ, err := x.path(st.X, c)
	if err != nil {
		return nil, err
	}
	if len(st.Body.List) == 0 {
		return nil, fmt.Errorf("empty loop")
	}
	as, ok := st.Body.List[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || as.Tok != token.DEFINE {
		return nil, fmt.Errorf("unexpected loop body")
	}
	elem := strings.TrimPrefix(strings.TrimPrefix(typ, "*"), "[]")
	if !strings.HasPrefix(strings.TrimPrefix(typ, "*"), "[]") {
		return nil, fmt.Errorf("loop over %s", typ)
	}
	inner := cursor{name: as.Lhs[0].(*ast.Ident).Name, typ: elem}
	do, err := x.block(st.Body.List[1:], inner, f)
	if err != nil {
		return nil, err
	}
	return step{"each": path, "do": do}, nil
}

// path resolves `v.A.B` (or `&v.A.B`) to JSON field names relative to the cursor v, and the type there.
func (x *extractor) path(e ast.Expr, c cursor) ([]string, string, error) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch v := e.(type) {
	case *ast.Ident:
		if v.Name != c.name {
			return nil, "", fmt.Errorf("reference to %s outside its loop", v.Name)
		}
		return []string{}, c.typ, nil
	case *ast.SelectorExpr:
		parent, typ, err := x.path(v.X, c)
		if err != nil {
			return nil, "", err
		}
		fields, ok := x.structs[strings.TrimPrefix(typ, "*")]
		if !ok {
			return nil, "", fmt.Errorf("%s is not a struct", typ)
		}
		for _, field := range fields {
			flags, goName, _ := strings.Cut(field[1], "|")
			if strings.Contains(flags, "i") {
				goName = lastSegment(field[2])
			}
			if goName != v.Sel.Name {
				continue
			}
			if strings.Contains(flags, "i") {
				return parent, field[2], nil
			}
			return append(append([]string{}, parent...), field[0]), field[2], nil
		}
		return nil, "", fmt.Errorf("no field %s in %s", v.Sel.Name, typ)
	}
	return nil, "", fmt.Errorf("unexpected path %s", source(e))
}

func lastSegment(definition string) string {
	return definition[strings.LastIndex(definition, ".")+1:]
}

func functionName(fun ast.Expr, f *fileContext) (string, error) {
	switch v := fun.(type) {
	case *ast.Ident:
		return shortName(f.pkg.path) + "." + v.Name, nil
	case *ast.SelectorExpr:
		alias, ok := v.X.(*ast.Ident)
		if !ok {
			break
		}
		if p, ok := f.imports[alias.Name]; ok {
			return shortName(p) + "." + v.Sel.Name, nil
		}
	}
	return "", fmt.Errorf("unexpected call of %s", source(fun))
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func source(n ast.Node) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, token.NewFileSet(), n)
	text := b.String()
	if len(text) > 120 {
		text = text[:120] + "..."
	}
	return text
}

// hash identifies a function's code: its printed form without comments, so that layout and
// comments do not count.
func hash(fd *ast.FuncDecl) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, token.NewFileSet(), fd)
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:6])
}
