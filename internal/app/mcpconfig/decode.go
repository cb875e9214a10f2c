package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// entry is one server as the config files of the tools write it: stdio
// (command, args, env, envFile, cwd) or remote (url, or Windsurf's
// serverUrl; type; headers).
type entry struct {
	Type      string            `json:"type"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	EnvFile   string            `json:"envFile"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	ServerURL string            `json:"serverUrl"`
	Headers   map[string]string `json:"headers"`
}

// file is the top of a config file: Claude's and Cursor's mcpServers, VS
// Code's servers and inputs, and Claude Code's per-project entries.
type file struct {
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	Servers    map[string]json.RawMessage `json:"servers"`
	Inputs     []struct {
		ID          string `json:"id"`
		Description string `json:"description"`
		Password    bool   `json:"password"`
		Default     string `json:"default"`
	} `json:"inputs"`
	Projects map[string]struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	} `json:"projects"`
}

// lists names the server lists of a format's files, the one its host reads
// first: VS Code reads "servers", the other hosts "mcpServers". The other
// list is read only when the first is missing or null.
func (f Format) lists() (first, other string) {
	if f == VSCode {
		return "servers", "mcpServers"
	}
	return "mcpServers", "servers"
}

// exactly decodes the JSON object data as a host reads it: each member
// whose key is exactly a key of fields into its value, the last of a
// duplicate key (encoding/json alone would also fill a struct field from a
// key that differs by case, and merge duplicate objects). Values keep
// their bytes (a json.RawMessage is the file's own text). data has
// decoded into a struct before, so errors are already reported with
// their place.
func exactly(data []byte, fields map[string]any) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for k, v := range fields {
		if raw, ok := all[k]; ok {
			if err := json.Unmarshal(raw, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeFile decodes a config file's top, its keys matched exactly.
func decodeFile(data []byte) (file, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return file{}, err
	}
	f = file{}
	var projects map[string]json.RawMessage
	err := exactly(data, map[string]any{"mcpServers": &f.MCPServers, "servers": &f.Servers, "inputs": &f.Inputs, "projects": &projects})
	if err != nil || projects == nil {
		return f, err
	}
	f.Projects = make(map[string]struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}, len(projects))
	for p, raw := range projects {
		proj := f.Projects[p]
		if err := exactly(raw, map[string]any{"mcpServers": &proj.MCPServers}); err != nil {
			return file{}, err
		}
		f.Projects[p] = proj
	}
	return f, nil
}

// parseFile reads the servers of one config file in data. project is the
// folder whose per-project servers a ~/.claude.json contributes (the
// nearest that holds the current directory). Entries that do not decode
// are returned as errors beside the others.
func parseFile(c Candidate, data []byte, cwd string) ([]Server, []error) {
	if c.Format.comments() {
		data = StripJSONC(data)
	}
	if c.Format == Registry {
		return parseRegistry(c, data)
	}
	f, err := decodeFile(data)
	if err != nil {
		return nil, []error{decodeError(c.Path, data, err)}
	}
	entries, other := f.MCPServers, f.Servers
	if first, _ := c.Format.lists(); first == "servers" {
		entries, other = other, entries
	}
	if entries == nil {
		entries = other
	}
	if p := projectOf(f.Projects, cwd); p != "" {
		merged := map[string]json.RawMessage{}
		for k, v := range entries {
			merged[k] = v
		}
		for k, v := range f.Projects[p].MCPServers {
			merged[k] = v
		}
		entries = merged
	}
	inputs := map[string]Input{}
	for _, in := range f.Inputs {
		inputs[in.ID] = Input{ID: in.ID, Description: in.Description, Password: in.Password, Default: in.Default}
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	var servers []Server
	var errs []error
	for _, name := range names {
		s, err := decodeEntry(c, name, entries[name])
		if err == nil && strings.TrimSpace(name) == "" {
			err = errors.New("a server needs a name")
		}
		if err != nil {
			errs = append(errs, entryError(c.Path, data, name, entries[name], err))
			continue
		}
		s.Inputs = inputs
		servers = append(servers, s)
	}
	return servers, errs
}

// projectOf returns the key of projects that is cwd or its nearest parent
// ("" for none).
func projectOf[T any](projects map[string]T, cwd string) string {
	best := ""
	for p := range projects {
		rel, err := filepath.Rel(p, cwd)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if len(p) > len(best) {
			best = p
		}
	}
	return best
}

// decodeEntry turns one entry into a Server.
func decodeEntry(c Candidate, name string, raw json.RawMessage) (Server, error) {
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Server{}, err
	}
	e = entry{}
	err := exactly(raw, map[string]any{"type": &e.Type, "command": &e.Command, "args": &e.Args, "env": &e.Env,
		"envFile": &e.EnvFile, "cwd": &e.Cwd, "url": &e.URL, "serverUrl": &e.ServerURL, "headers": &e.Headers})
	if err != nil {
		return Server{}, err
	}
	s := Server{
		Name: name, Source: c.Path, Format: c.Format, Workspace: c.Workspace,
		Command: e.Command, Args: e.Args, EnvFile: e.EnvFile, Cwd: e.Cwd,
		Env: pairs(e.Env), Headers: pairs(e.Headers),
		URL: e.URL,
	}
	if s.URL == "" {
		s.URL = e.ServerURL
	}
	t, err := transportOf(e.Type, s.Command, s.URL)
	if err != nil {
		return Server{}, err
	}
	s.Transport = t
	return unwrapProxied(s), nil
}

// transportOf names the transport of an entry from its type, or, without
// one, from whether it has a command or a URL (and the URL's scheme).
func transportOf(typ, command, rawURL string) (string, error) {
	switch strings.ToLower(typ) {
	case "stdio":
		if command == "" {
			return "", fmt.Errorf("a stdio server needs a command")
		}
		return "stdio", nil
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return remote("http", rawURL)
	case "sse":
		return remote("sse", rawURL)
	case "ws", "websocket":
		return remote("ws", rawURL)
	case "":
	default:
		return "", fmt.Errorf("the type %q is not one mcpscope knows (stdio, http, sse, ws)", typ)
	}
	switch {
	case command != "":
		return "stdio", nil
	case rawURL != "":
		u, err := url.Parse(rawURL)
		if err == nil && (strings.EqualFold(u.Scheme, "ws") || strings.EqualFold(u.Scheme, "wss")) {
			return "ws", nil
		}
		return remote("http", rawURL)
	}
	return "", fmt.Errorf("neither a command nor a url")
}

func remote(t, rawURL string) (string, error) {
	if rawURL == "" {
		return "", fmt.Errorf("a %s server needs a url", t)
	}
	return t, nil
}

// pairs lists m sorted by name.
func pairs(m map[string]string) []Pair {
	if len(m) == 0 {
		return nil
	}
	out := make([]Pair, 0, len(m))
	for k, v := range m {
		out = append(out, Pair{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// entryError places the error of the entry name, whose text is raw, in the
// file's data: a type error at the value it is about, any other at the
// entry's start (found by its text).
func entryError(path string, data []byte, name string, raw json.RawMessage, err error) error {
	fe := &FileError{Path: path, Err: fmt.Errorf("server %q: %w", name, err)}
	start := bytes.Index(data, raw)
	if start < 0 {
		return fe
	}
	off := int64(start)
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		fe.Err = fmt.Errorf("server %q: %q must be %s, not a JSON %s", name, typ.Field, jsonKind(typ.Type.Kind()), typ.Value)
		off += typ.Offset
		// The offset is just past the value: step back to its start.
		if v := valueStart(raw, typ.Offset); v >= 0 {
			off = int64(start + v)
		}
	}
	fe.Pos = PositionAt(data, off)
	return fe
}

// valueStart finds where the JSON value that ends at end in raw begins
// (-1 when it cannot tell): the first non-blank byte after the ':' before it.
func valueStart(raw []byte, end int64) int {
	if end > int64(len(raw)) {
		return -1
	}
	depth := 0
	inString := false
	for i := int(end) - 1; i >= 0; i-- {
		c := raw[i]
		switch {
		case inString:
			if c == '"' && (i == 0 || raw[i-1] != '\\') {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '}' || c == ']':
			depth++
		case c == '{' || c == '[':
			depth--
		case c == ':' && depth == 0:
			j := i + 1
			for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
				j++
			}
			return j
		}
	}
	return -1
}

// jsonKind names what a Go kind is in JSON.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	}
	return "a number"
}
