package answers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"go.yaml.in/yaml/v3"
)

// File is the content of an answers file: scripted replies to the
// questions a server asks, consumed in order of arrival per kind.
type File struct {
	Elicitation []Elicitation `json:"elicitation,omitempty"`
	Sampling    []Sampling    `json:"sampling,omitempty"`
	Roots       []mcp.Root    `json:"roots,omitempty"`
	Interaction []Interaction `json:"interaction,omitempty"`
	// Steps is what `mcpscope script` runs, in order; other commands ignore it.
	Steps []Step `json:"steps,omitempty"`
}

// Elicitation answers one elicitation/create request (form or URL mode).
type Elicitation struct {
	// Action is accept, decline or cancel; empty means accept.
	Action string `json:"action,omitempty"`
	// Content holds the form's fields; missing fields take the schema default.
	Content map[string]any `json:"content,omitempty"`
}

// Sampling answers one sampling/createMessage request.
type Sampling struct {
	Text       string `json:"text"`                 // the assistant's reply
	Model      string `json:"model,omitempty"`      // the model to report; "mcpscope" when empty
	StopReason string `json:"stopReason,omitempty"` // "endTurn" when empty
}

// Interaction answers one interaction.prompt (or the next prompt of
// an interaction.continue): a plain value ("John"), {value: …},
// {cancel: true}, or {file: PATH}.
type Interaction struct {
	Value  any    // the answer, when neither a cancellation nor a file
	Cancel bool   // answer the prompt with interaction.cancel
	File   string // answer with this file's name, size and base64 content
}

// UnmarshalJSON accepts a bare value, {"value": …}, {"cancel": true} or
// {"file": "PATH"}. An object with other keys is a bare value (a custom
// prompt's answer); one that mixes those keys is refused.
func (a *Interaction) UnmarshalJSON(b []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || len(obj) == 0 || !onlyKeys(obj, "value", "cancel", "file") {
		return json.Unmarshal(b, &a.Value)
	}
	if len(obj) > 1 {
		return fmt.Errorf("an interaction answer takes one of value, cancel and file, got %d of them", len(obj))
	}
	if c, ok := obj["cancel"]; ok {
		if err := json.Unmarshal(c, &a.Cancel); err != nil {
			return fmt.Errorf("cancel must be true or false: %w", err)
		}
	}
	if f, ok := obj["file"]; ok {
		if err := json.Unmarshal(f, &a.File); err != nil || a.File == "" {
			return fmt.Errorf("file must be the path of a file")
		}
	}
	if v, ok := obj["value"]; ok {
		return json.Unmarshal(v, &a.Value)
	}
	return nil
}

// onlyKeys reports whether every key of m is one of keys.
func onlyKeys(m map[string]json.RawMessage, keys ...string) bool {
	for k := range m {
		found := false
		for _, want := range keys {
			found = found || k == want
		}
		if !found {
			return false
		}
	}
	return true
}

// Load reads and parses the answers file at path. A file answer's
// relative path is resolved against the answers file's directory.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the answers file: %w", err)
	}
	a, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("the answers file %s is not valid: %w", path, err)
	}
	// A file answer's relative path starts at the answers file.
	for i, ans := range a.Interaction {
		if ans.File != "" && !filepath.IsAbs(ans.File) {
			a.Interaction[i].File = filepath.Join(filepath.Dir(path), ans.File)
		}
	}
	return a, nil
}

// Parse parses an answers file in JSON or YAML, after the byte
// order mark it may start with. Unknown keys are rejected so that a typo
// does not silently drop an answer.
func Parse(b []byte) (*File, error) {
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	var doc any
	if trimmed := bytes.TrimSpace(b); len(trimmed) > 0 && trimmed[0] == '{' {
		jd := json.NewDecoder(bytes.NewReader(trimmed))
		jd.UseNumber()
		if err := jd.Decode(&doc); err != nil {
			return nil, fmt.Errorf("JSON: %w", err)
		}
	} else if err := decodeYAML(b, &doc); err != nil {
		return nil, fmt.Errorf("YAML: %w", err)
	}
	if doc == nil {
		return &File{}, nil
	}
	// Both syntaxes meet in JSON so that one set of rules validates them.
	norm, err := json.Marshal(jsonCompatible(doc))
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(norm))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	a := &File{}
	if err := dec.Decode(a); err != nil {
		return nil, err
	}
	for i, e := range a.Elicitation {
		switch e.Action {
		case "", mcp.ElicitActionAccept, mcp.ElicitActionDecline, mcp.ElicitActionCancel:
		default:
			return nil, fmt.Errorf("elicitation answer %d has action %q; use accept, decline or cancel", i+1, e.Action)
		}
	}
	for i, r := range a.Roots {
		if r.URI == "" {
			return nil, fmt.Errorf("root %d has no uri", i+1)
		}
	}
	for i, st := range a.Steps {
		if err := st.Validate(); err != nil {
			return nil, fmt.Errorf("step %d %w", i+1, err)
		}
	}
	return a, nil
}

// decodeYAML decodes a YAML document into v, keeping timestamps as the
// text they are written as: an unquoted 2026-12-24 answers a date prompt
// with "2026-12-24", not with a time at midnight UTC.
func decodeYAML(b []byte, v any) error {
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return err
	}
	timestampsAsText(&root)
	return root.Decode(v)
}

// timestampsAsText retags every timestamp scalar under n as a string.
func timestampsAsText(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!timestamp" {
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		timestampsAsText(c)
	}
}

// jsonCompatible turns YAML's map[any]any (non-string keys) into
// map[string]any, recursively, so the document marshals as JSON.
func jsonCompatible(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonCompatible(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonCompatible(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonCompatible(e)
		}
		return x
	}
	return v
}
