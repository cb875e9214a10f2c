package mcpconfig

import (
	"fmt"
	"path/filepath"
)

// Resolved is a server ready to start or reach: its variables expanded,
// its env file read and its working folder made absolute.
type Resolved struct {
	Transport string
	// Argv, Env (KEY=VALUE, over the inherited environment) and Dir start
	// a stdio server.
	Argv []string
	Env  []string
	Dir  string
	// URL and Headers ("Name: value") reach a remote one.
	URL     string
	Headers []string
}

// Resolve expands the variables of s the way its tool does, with x's
// environment, home and input answers (x.Dialect and x.Workspace are taken
// from s).
func (s Server) Resolve(x Expander) (Resolved, error) {
	x.Dialect, x.Workspace = s.Format.dialect(), s.Workspace
	r := Resolved{Transport: s.Transport}
	var err error
	expand := func(v string) string {
		if err != nil {
			return ""
		}
		var out string
		out, err = x.Expand(v)
		return out
	}
	if s.Transport != "stdio" {
		r.URL = expand(s.URL)
		for _, h := range s.Headers {
			r.Headers = append(r.Headers, h.Name+": "+expand(h.Value))
		}
		return r, wrapResolve(s, err)
	}
	r.Argv = append(r.Argv, expand(s.Command))
	for _, a := range s.Args {
		r.Argv = append(r.Argv, expand(a))
	}
	if s.EnvFile != "" {
		if path := s.relative(expand(s.EnvFile)); err == nil {
			r.Env, err = readEnvFile(path)
		}
	}
	for _, p := range s.Env {
		r.Env = append(r.Env, p.Name+"="+expand(p.Value))
	}
	if s.Cwd != "" {
		r.Dir = s.relative(expand(s.Cwd))
	}
	return r, wrapResolve(s, err)
}

// readEnvFile reads the variables of an env file as KEY=VALUE.
func readEnvFile(path string) ([]string, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("the envFile %s: %w", path, err)
	}
	vars, err := ParseDotenv(data)
	if err != nil {
		return nil, fmt.Errorf("the envFile %s: %w", path, err)
	}
	env := make([]string, len(vars))
	for i, p := range vars {
		env[i] = p.Name + "=" + p.Value
	}
	return env, nil
}

// relative makes a path of the config absolute from its workspace.
func (s Server) relative(p string) string {
	if p == "" || filepath.IsAbs(p) || s.Workspace == "" {
		return p
	}
	return filepath.Join(s.Workspace, p)
}

func wrapResolve(s Server, err error) error {
	if err != nil {
		return fmt.Errorf("the server %q of %s: %w", s.Name, s.Source, err)
	}
	return nil
}
