package mcpconfig

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestExpandShell(t *testing.T) {
	x := Expander{Dialect: ShellVariables, LookupEnv: env(map[string]string{"A": "1", "E": ""})}
	for in, want := range map[string]string{
		"${A}":       "1",
		"x${A}y${A}": "x1y1",
		"${B:-def}":  "def",
		"${E:-def}":  "def",
		"${E}":       "",
		"${A:-def}":  "1",
		"${env:A}":   "${env:A}",
		"$A ${ } ${": "$A ${ } ${",
		"${B:-a:-b}": "a:-b",
		"${x-y}/x":   "${x-y}/x",
	} {
		got, err := x.Expand(in)
		if err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := x.Expand("${MISSING}"); err == nil || !strings.Contains(err.Error(), "MISSING") {
		t.Errorf("an unset variable without default: %v", err)
	}
}

func TestExpandEditor(t *testing.T) {
	asked := ""
	x := Expander{Dialect: EditorVariables, LookupEnv: env(map[string]string{"A": "1"}),
		Home: "/h", Workspace: filepath.Join("/w", "proj"),
		Input: func(id string) (string, error) { asked += id; return "in-" + id, nil }}
	for in, want := range map[string]string{
		"${env:A}${env:NONE}":        "1",
		"${userHome}/.x":             "/h/.x",
		"${workspaceFolder}/a":       filepath.Join("/w", "proj") + "/a",
		"${workspaceFolderBasename}": "proj",
		"${input:key}":               "in-key",
		"${A}":                       "${A}",
		"${command:pick}":            "${command:pick}",
		"${pathSeparator}":           string(filepath.Separator),
	} {
		got, err := x.Expand(in)
		if err != nil || got != want {
			t.Errorf("Expand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if asked != "key" {
		t.Errorf("inputs asked: %q", asked)
	}
	boom := errors.New("no terminal")
	x.Input = func(string) (string, error) { return "", boom }
	if _, err := x.Expand("a${input:k}"); !errors.Is(err, boom) {
		t.Errorf("an input that fails: %v", err)
	}
	x.Dialect = NoVariables
	if got, _ := x.Expand("${env:A}"); got != "${env:A}" {
		t.Errorf("NoVariables expanded: %q", got)
	}
}

// FuzzExpand: never panics, and text without "${" comes back unchanged;
// the output is bounded by the input and the values substituted.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${B:-x}", "${env:A}${input:i}", "${", "}${}"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, shell bool) {
		x := Expander{Dialect: EditorVariables, LookupEnv: env(map[string]string{"A": "aa"}), Home: "h", Workspace: "w",
			Input: func(string) (string, error) { return "ii", nil }}
		if shell {
			x.Dialect = ShellVariables
		}
		out, err := x.Expand(in)
		if err != nil {
			return
		}
		if !strings.Contains(in, "${") && out != in {
			t.Fatalf("%q changed to %q", in, out)
		}
		if len(out) > 2*len(in)+8 {
			t.Fatalf("%q grew to %q", in, out)
		}
	})
}
