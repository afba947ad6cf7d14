// Command go-module-proxy adds a module, given as a directory, to a file-based Go module proxy
// (GOPROXY=file:///...). The build uses it for the one module its Go packages need that this
// machine's module proxy does not serve: cdk8s's own Go binding, generated from the cdk8s npm
// package (see test/languages/README.md).
//
//	go run . -dir <module directory> -version v2.70.0 -out <proxy directory>
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's directory (with its go.mod)")
	version := flag.String("version", "", "the version to serve it as, such as v2.70.0")
	out := flag.String("out", "", "the proxy's root directory")
	flag.Parse()
	if *dir == "" || *version == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := add(*dir, *version, *out); err != nil {
		fmt.Fprintln(os.Stderr, "go-module-proxy:", err)
		os.Exit(1)
	}
}

// add writes the four files of the proxy protocol for one version: list, .info, .mod and .zip.
func add(dir, version, out string) error {
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escapedPath, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	escapedVersion, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	versions := filepath.Join(out, escapedPath, "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	base := filepath.Join(versions, escapedVersion)

	zip, err := os.Create(base + ".zip")
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zip, mod, dir); err != nil {
		zip.Close()
		return err
	}
	if err := zip.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(base+".mod", goMod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct{ Version string }{version})
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".info", info, 0o644); err != nil {
		return err
	}
	return addToList(filepath.Join(versions, "list"), version)
}

func addToList(list, version string) error {
	known, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	lines := strings.Fields(string(known))
	if !slices.Contains(lines, version) {
		lines = append(lines, version)
	}
	return os.WriteFile(list, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
