package cli

import (
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// workingDir is the folder whose project config files are read (the
// current directory; tests point it elsewhere).
var workingDir = os.Getwd

// configEnv says where the MCP config files of other tools are: the user's
// home and config folders and the current directory.
func configEnv() (mcpconfig.Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return mcpconfig.Env{}, err
	}
	cwd, err := workingDir()
	if err != nil {
		return mcpconfig.Env{}, err
	}
	return mcpconfig.Env{GOOS: runtime.GOOS, Getenv: os.Getenv, Home: home, Cwd: cwd}, nil
}

// configured is every server of the config files, or of the one file
// --config names, with the errors of the files that did not load.
type configured struct {
	env     mcpconfig.Env
	servers []mcpconfig.Server
	errs    []error
}

// loadConfigured reads the config files (only configFile when set).
func loadConfigured(configFile string) (*configured, error) {
	env, err := configEnv()
	if err != nil {
		return nil, err
	}
	c := &configured{env: env}
	if configFile != "" {
		c.servers, c.errs = mcpconfig.LoadFile(configFile, env.Cwd)
	} else {
		c.servers, c.errs = mcpconfig.Load(env.Candidates(), env.Cwd)
	}
	return c, nil
}

// named returns the servers called name.
func (c *configured) named(name string) []mcpconfig.Server {
	var out []mcpconfig.Server
	for _, s := range c.servers {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// positionalBeforeTarget is how many arguments the commands that take
// some come with before their TARGET: with no more than that, the TARGET
// is missing, not unknown.
var positionalBeforeTarget = map[string]int{"call": 1, "stream": 1, "tool": 1, "prompt": 1, "bench": 1}

// target splits args into the positional arguments and the TARGET: a URL,
// -- CMD [ARGS…], or, last on the line, the name of a server from the
// config files. A last argument that is none of these is explained
// (targetShape, configured.unknown).
func (f *runFlags) target(cmd *cobra.Command, args []string) ([]string, Target, error) {
	return f.targetAt(cmd, args, cmd.ArgsLenAtDash())
}

// targetAt is target for args whose "--" is at dashAt (-1: none).
func (f *runFlags) targetAt(cmd *cobra.Command, args []string, dashAt int) ([]string, Target, error) {
	positional, t, err := splitTarget(args, dashAt, f.transport)
	n := len(args)
	if err == nil || dashAt >= 0 || n <= positionalBeforeTarget[cmd.Name()] || urlPrefix.MatchString(args[n-1]) || schemeNoColon.MatchString(args[n-1]) ||
		slices.ContainsFunc(args[:n-1], urlPrefix.MatchString) || paramsLike(args[n-1]) {
		if err == nil && f.config != "" {
			return nil, Target{}, usagef("--config picks a server NAME; the TARGET %s is not one", t.String())
		}
		return positional, t, err
	}
	t, found, rerr := f.serverTarget(cmd, args[n-1])
	if !found {
		if shape := targetShape(cmd, args[:n-1], args[n-1]); shape != nil {
			return nil, Target{}, shape
		}
	}
	if rerr != nil {
		return nil, Target{}, rerr
	}
	return args[:n-1], t, nil
}

// paramsLike reports whether arg is a PARAMS_JSON (an object or array, or
// - for standard input) rather than a TARGET left out; an IPv6
// [HOST]:PORT is a TARGET missing its scheme, not an array.
func paramsLike(arg string) bool {
	s := strings.TrimSpace(arg)
	return s == "-" || strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") && !hostPort().MatchString(s)
}

// serverTarget resolves name to the Target of a configured server; found
// says one has that name (also when resolving it fails, or when several
// files have it). Without one, the error says so (configured.unknown).
func (f *runFlags) serverTarget(cmd *cobra.Command, name string) (t Target, found bool, err error) {
	c, err := loadConfigured(f.config)
	if err != nil {
		return Target{}, false, err
	}
	matches := c.named(name)
	switch {
	case len(matches) > 1:
		var files []string
		for _, s := range matches {
			files = append(files, s.Source)
		}
		return Target{}, true, usagef("the server %s is in %d config files; choose one with --config FILE: %s", quote(name), len(matches), strings.Join(files, ", "))
	case len(matches) == 0:
		return Target{}, false, c.unknown(name, f.config)
	}
	t, err = f.serverOf(cmd, c, matches[0])
	return t, true, err
}

// serverOf resolves the configured server s to its Target, asking for
// its inputs.
func (f *runFlags) serverOf(cmd *cobra.Command, c *configured, s mcpconfig.Server) (Target, error) {
	r, err := s.Resolve(mcpconfig.Expander{LookupEnv: os.LookupEnv, Home: c.env.Home, Input: askInput(s, cmd.InOrStdin(), cmd.ErrOrStderr())})
	if err != nil {
		return Target{}, &UsageError{Err: err}
	}
	t, err := resolvedTarget(r, f.transport)
	if err != nil {
		return Target{}, err
	}
	t.Server = s.Name
	return t, nil
}

// unknown explains a name no config file has (only configFile, when
// given), with the names close to it and where to see them all; the files
// that did not load follow on the same line.
func (c *configured) unknown(name, configFile string) error {
	var names []string
	for _, s := range c.servers {
		names = append(names, s.Name)
	}
	msg := "no server " + quote(name) + " in your config files"
	if configFile != "" {
		msg = "no server is called " + quote(name) + " in " + quote(configFile)
	}
	if close := mcpconfig.Closest(name, names); len(close) > 0 {
		quoted := make([]string, len(close))
		for i, n := range close {
			quoted[i] = quote(n)
		}
		msg += "; did you mean " + strings.Join(quoted, " or ") + "?"
	}
	msg += " (mcpscope servers lists them)"
	for _, e := range c.errs {
		msg += "; " + e.Error()
	}
	return usagef("%s", msg)
}

// resolvedTarget turns a resolved server into a Target; transport is the
// --transport override.
func resolvedTarget(r mcpconfig.Resolved, transport string) (Target, error) {
	if r.Transport == "stdio" {
		if transport != "" && transport != "stdio" {
			return Target{}, usagef("--transport %s cannot run a stdio server", transport)
		}
		return Target{Transport: "stdio", Argv: r.Argv, Env: r.Env, Dir: r.Dir}, nil
	}
	if transport == "" {
		transport = r.Transport
	}
	t, err := parseURLTarget(r.URL, transport)
	if err != nil {
		return Target{}, err
	}
	t.Headers = r.Headers
	return t, nil
}

// onlyTarget parses the arguments of a command that takes a TARGET and
// nothing else (f.target), refusing anything before it.
func (f *runFlags) onlyTarget(cmd *cobra.Command, args []string) (Target, error) {
	positional, target, err := f.target(cmd, args)
	if err != nil {
		return Target{}, err
	}
	if len(positional) > 0 {
		return Target{}, usagef("%s takes only a TARGET, got %q before it", cmd.CommandPath(), positional[0])
	}
	return target, nil
}
