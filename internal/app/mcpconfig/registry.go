package mcpconfig

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// registryServer is the part of a registry server.json mcpscope uses: the
// server's name, its packages (run locally) and its remotes.
type registryServer struct {
	Name     string `json:"name"`
	Packages []struct {
		RegistryType         string        `json:"registryType"`
		Identifier           string        `json:"identifier"`
		Version              string        `json:"version"`
		RuntimeHint          string        `json:"runtimeHint"`
		RuntimeArguments     []registryArg `json:"runtimeArguments"`
		PackageArguments     []registryArg `json:"packageArguments"`
		EnvironmentVariables []registryKV  `json:"environmentVariables"`
		Transport            struct {
			Type    string       `json:"type"`
			URL     string       `json:"url"`
			Headers []registryKV `json:"headers"`
		} `json:"transport"`
	} `json:"packages"`
	Remotes []struct {
		Type    string       `json:"type"`
		URL     string       `json:"url"`
		Headers []registryKV `json:"headers"`
	} `json:"remotes"`
}

// registryArg is a runtime or package argument: positional (its value) or
// named (its name, then its value).
type registryArg struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Default string `json:"default"`
}

// registryKV is an environment variable or a header: a value, a default,
// or neither (the user is asked, as a password when secret).
type registryKV struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Value       string `json:"value"`
	Default     string `json:"default"`
	IsSecret    bool   `json:"isSecret"`
}

// registryRunners is the command that runs a package of each registry
// when the package gives no runtimeHint, and the arguments before it.
var registryRunners = map[string][]string{
	"npm":   {"npx", "-y"},
	"pypi":  {"uvx"},
	"oci":   {"docker", "run", "-i", "--rm"},
	"nuget": {"dnx"},
}

// parseRegistry reads a registry server.json: one server per package and
// per remote, named after the server (the second and later ones #2, #3…).
func parseRegistry(c Candidate, data []byte) ([]Server, []error) {
	var r registryServer
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, []error{decodeError(c.Path, data, err)}
	}
	if r.Name == "" {
		return nil, []error{&FileError{Path: c.Path, Err: fmt.Errorf("the server.json has no name")}}
	}
	var servers []Server
	var errs []error
	name := func() string {
		if len(servers) == 0 {
			return r.Name
		}
		return r.Name + "#" + strconv.Itoa(len(servers)+1)
	}
	for _, p := range r.Packages {
		inputs := map[string]Input{}
		s := Server{Name: name(), Source: c.Path, Format: Registry, Workspace: c.Workspace, Inputs: inputs}
		s.Env = registryPairs(p.EnvironmentVariables, inputs)
		if t := p.Transport.Type; t != "" && t != "stdio" {
			var err error
			if s.Transport, err = transportOf(t, "", p.Transport.URL); err != nil {
				errs = append(errs, &FileError{Path: c.Path, Err: fmt.Errorf("package %q: %w", p.Identifier, err)})
				continue
			}
			s.URL, s.Headers = p.Transport.URL, registryPairs(p.Transport.Headers, inputs)
			servers = append(servers, s)
			continue
		}
		runner, ok := registryRunners[p.RegistryType]
		if p.RuntimeHint != "" {
			runner, ok = []string{p.RuntimeHint}, true
		}
		if !ok {
			errs = append(errs, &FileError{Path: c.Path, Err: fmt.Errorf("package %q: mcpscope cannot run a %q package", p.Identifier, p.RegistryType)})
			continue
		}
		s.Transport, s.Command = "stdio", runner[0]
		s.Args = append(append([]string{}, runner[1:]...), registryArgs(p.RuntimeArguments)...)
		s.Args = append(s.Args, packageRef(p.RegistryType, p.Identifier, p.Version))
		s.Args = append(s.Args, registryArgs(p.PackageArguments)...)
		servers = append(servers, s)
	}
	for _, rm := range r.Remotes {
		inputs := map[string]Input{}
		t, err := transportOf(rm.Type, "", rm.URL)
		if err != nil {
			errs = append(errs, &FileError{Path: c.Path, Err: fmt.Errorf("remote %q: %w", rm.URL, err)})
			continue
		}
		servers = append(servers, Server{Name: name(), Source: c.Path, Format: Registry, Workspace: c.Workspace,
			Transport: t, URL: rm.URL, Headers: registryPairs(rm.Headers, inputs), Inputs: inputs})
	}
	return servers, errs
}

// packageRef names a package at its version the way its runner wants it.
func packageRef(registry, id, version string) string {
	switch {
	case version == "" || registry == "oci":
		return id
	case registry == "pypi":
		return id + "==" + version
	}
	return id + "@" + version
}

// registryArgs renders arguments: a named one as its name then its value.
func registryArgs(args []registryArg) []string {
	var out []string
	for _, a := range args {
		v := a.Value
		if v == "" {
			v = a.Default
		}
		if a.Type == "named" {
			out = append(out, a.Name)
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// registryPairs lists variables or headers; one without a value or a
// default becomes ${input:NAME}, defined in inputs.
func registryPairs(kvs []registryKV, inputs map[string]Input) []Pair {
	var out []Pair
	for _, kv := range kvs {
		v := kv.Value
		if v == "" {
			v = kv.Default
		}
		if v == "" {
			inputs[kv.Name] = Input{ID: kv.Name, Description: kv.Description, Password: kv.IsSecret}
			v = "${input:" + kv.Name + "}"
		}
		out = append(out, Pair{kv.Name, v})
	}
	return out
}
