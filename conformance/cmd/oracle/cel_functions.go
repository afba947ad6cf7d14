package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

// celOverload is one overload of a CEL function as the apiserver declares it for new expressions.
type celOverload struct {
	Function string   `json:"function"`
	ID       string   `json:"id"`
	Member   bool     `json:"member"`
	Args     []string `json:"args"`
	Result   string   `json:"result"`
}

// dumpCelFunctions prints, as JSON, every function overload of the apiserver's base CEL
// environment for new expressions at the given compatibility version (for example 1.36, what a
// 1.37 apiserver compiles new expressions against). The CEL suite generates calls from it.
func dumpCelFunctions(compatibility string) error {
	v, err := version.ParseMajorMinor(compatibility)
	if err != nil {
		return err
	}
	env, err := environment.MustBaseEnvSet(v).Env(environment.NewExpressions)
	if err != nil {
		return err
	}
	var out []celOverload
	for name, fn := range env.Functions() {
		for _, o := range fn.OverloadDecls() {
			args := make([]string, 0, len(o.ArgTypes()))
			for _, t := range o.ArgTypes() {
				args = append(args, t.String())
			}
			out = append(out, celOverload{Function: name, ID: o.ID(), Member: o.IsMemberFunction(), Args: args, Result: o.ResultType().String()})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].Function < out[j].Function
	})
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(os.Stdout, string(data))
	return err
}
