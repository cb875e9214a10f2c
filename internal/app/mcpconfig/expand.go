package mcpconfig

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Dialect is the variable syntax a config file's tool expands.
type Dialect int

const (
	// NoVariables: the tool uses its strings as they are (Claude Desktop,
	// the Inspector).
	NoVariables Dialect = iota
	// ShellVariables: ${VAR} and ${VAR:-default} from the environment
	// (Claude Code); an unset VAR without a default is an error.
	ShellVariables
	// EditorVariables: ${env:VAR}, ${userHome}, ${workspaceFolder},
	// ${workspaceFolderBasename}, ${pathSeparator} and ${input:id} (VS Code,
	// Cursor, Windsurf, and the inputs of a registry server.json).
	EditorVariables
)

// Expander expands the variables of one dialect. Unknown ${…} forms are
// left as they are.
type Expander struct {
	Dialect Dialect
	// LookupEnv reads the environment (os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Home is ${userHome}; Workspace is ${workspaceFolder}.
	Home, Workspace string
	// Input answers ${input:id}; nil leaves the variable as it is.
	Input func(id string) (string, error)
}

// Expand returns s with its variables replaced.
func (x *Expander) Expand(s string) (string, error) {
	if x.Dialect == NoVariables || !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		v, err := x.variable(s[i+2 : i+j])
		if err != nil {
			return "", err
		}
		if v == nil {
			b.WriteString(s[i : i+j+1])
		} else {
			b.WriteString(*v)
		}
		s = s[i+j+1:]
	}
}

// variable evaluates the body of one ${…}; nil means "leave it as is".
func (x *Expander) variable(body string) (*string, error) {
	if x.Dialect == ShellVariables {
		name, def, hasDef := strings.Cut(body, ":-")
		if !shellName(name) {
			return nil, nil
		}
		if v, ok := x.lookup(name); ok && (v != "" || !hasDef) {
			return &v, nil
		}
		if hasDef {
			return &def, nil
		}
		return nil, fmt.Errorf("the variable ${%s} is not set and has no default (${%s:-DEFAULT})", name, name)
	}
	kind, arg, _ := strings.Cut(body, ":")
	var v string
	switch kind {
	case "env":
		v, _ = x.lookup(arg)
	case "userHome":
		v = x.Home
	case "workspaceFolder":
		v = x.Workspace
	case "workspaceFolderBasename":
		v = filepath.Base(x.Workspace)
	case "pathSeparator", "/":
		v = string(filepath.Separator)
	case "input":
		if x.Input == nil {
			return nil, nil
		}
		var err error
		if v, err = x.Input(arg); err != nil {
			return nil, err
		}
	default:
		return nil, nil
	}
	return &v, nil
}

func (x *Expander) lookup(name string) (string, bool) {
	if x.LookupEnv == nil {
		return "", false
	}
	return x.LookupEnv(name)
}

// shellName reports whether s is a shell variable name.
func shellName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z') && (i == 0 || !(c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}
