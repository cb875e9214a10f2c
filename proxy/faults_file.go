package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// maxFaultsFile bounds a faults file: a few rules take a few hundred bytes.
const maxFaultsFile = 1 << 20

// LoadFaults reads a faults file (YAML, or JSON, which is YAML too). See
// ParseFaults.
func LoadFaults(path string) ([]Fault, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the faults file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFaultsFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading the faults file: %w", err)
	}
	rules, err := ParseFaults(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rules, nil
}

// ParseFaults reads the rules of a faults file:
//
//	faults:
//	  - match: {method: tools/call, tool: echo, dir: host}
//	    delay: 2s
//	  - match: {method: tools/call, tool: slow}
//	    error: {code: -32000, message: injected failure, data: {why: test}}
//	  - cut: true
//	    after: 10
//
// (a bare list of rules is read the same). A rule has an optional match
// (a Filter: method, tool, dir), exactly one action — delay: DURATION,
// drop: true, duplicate: true, corrupt: true, error: {code, message,
// data} or cut: true — and optional counts after and times (see Fault).
// Unknown keys, a bad duration, a negative count, a pattern that does not
// compile or an error without a code are refused, naming the rule (from
// 1) and its line. Anchors and aliases are refused.
func ParseFaults(b []byte) ([]Fault, error) {
	if len(b) > maxFaultsFile {
		return nil, fmt.Errorf("a faults file is at most %d bytes", maxFaultsFile)
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("not YAML or JSON: %w", err)
	}
	if err := noAliases(&root); err != nil {
		return nil, err
	}
	list, err := faultList(&root)
	if err != nil || list == nil {
		return nil, err
	}
	var rules []Fault
	for i, n := range list.Content {
		f, err := faultRule(n)
		if err == nil {
			err = f.Check()
		}
		if err != nil {
			return nil, fmt.Errorf("fault rule %d (line %d): %w", i+1, n.Line, err)
		}
		rules = append(rules, f)
	}
	return rules, nil
}

// noAliases refuses anchors and aliases anywhere under n: a rule is
// written out, and an alias could expand without bound.
func noAliases(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return fmt.Errorf("line %d: a faults file has no anchors or aliases", n.Line)
	}
	for _, c := range n.Content {
		if err := noAliases(c); err != nil {
			return err
		}
	}
	return nil
}

// faultList finds the list of rules: the value of the one key faults, or
// the document itself when it is a list. nil: no rules.
func faultList(root *yaml.Node) (*yaml.Node, error) {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	switch {
	case doc.Kind == 0 || isNull(doc):
		return nil, nil
	case doc.Kind == yaml.SequenceNode:
		return doc, nil
	case doc.Kind != yaml.MappingNode:
		return nil, fmt.Errorf("line %d: a faults file holds faults: followed by a list of rules", doc.Line)
	}
	var list *yaml.Node
	for k := 0; k+1 < len(doc.Content); k += 2 {
		key, val := doc.Content[k], doc.Content[k+1]
		if key.Value != "faults" || list != nil {
			return nil, fmt.Errorf("line %d: unknown key %q; a faults file holds one key, faults", key.Line, key.Value)
		}
		list = val
	}
	switch {
	case list == nil || isNull(list):
		return nil, nil
	case list.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("line %d: faults is a list of rules", list.Line)
	}
	return list, nil
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// faultRule reads one rule; the caller names it.
func faultRule(n *yaml.Node) (Fault, error) {
	var f Fault
	if n.Kind != yaml.MappingNode {
		return f, errors.New("a rule is a mapping: match, one action, after, times")
	}
	seen := map[string]bool{}
	var actions []string
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, val := n.Content[k], n.Content[k+1]
		if seen[key.Value] {
			return f, fmt.Errorf("%s is given twice", key.Value)
		}
		seen[key.Value] = true
		on, err := faultKey(&f, key.Value, val)
		if err != nil {
			return f, fmt.Errorf("%s (line %d): %w", key.Value, val.Line, err)
		}
		if on {
			actions = append(actions, key.Value)
			f.Action = key.Value
		}
	}
	switch len(actions) {
	case 0:
		return f, fmt.Errorf("no action: a rule does one of %s", strings.Join(faultActions, ", "))
	case 1:
		return f, nil
	}
	return f, fmt.Errorf("%s: a rule does one action", strings.Join(actions, " and "))
}

// faultKey reads one key of a rule into f; on says the key set an action.
func faultKey(f *Fault, key string, val *yaml.Node) (on bool, err error) {
	switch key {
	case "match":
		return false, faultMatch(&f.Match, val)
	case FaultDelay:
		f.Delay, err = faultDuration(val)
		return true, err
	case FaultDrop, FaultDuplicate, FaultCorrupt, FaultCut:
		return scalar[bool](val, "true or false")
	case FaultError:
		f.Error, err = faultError(val)
		return true, err
	case "after":
		f.After, err = faultCount(val)
		return false, err
	case "times":
		f.Times, err = faultCount(val)
		return false, err
	}
	return false, fmt.Errorf("unknown key; a rule takes match, after, times and one of %s", strings.Join(faultActions, ", "))
}

// scalar decodes a scalar node into a T; want says what it should be.
func scalar[T any](n *yaml.Node, want string) (T, error) {
	var v T
	if n.Kind != yaml.ScalarNode || isNull(n) || n.Decode(&v) != nil {
		return v, fmt.Errorf("%q is not %s", n.Value, want)
	}
	return v, nil
}

func faultMatch(m *Filter, n *yaml.Node) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return errors.New("match is a mapping of method, tool and dir")
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, val := n.Content[k], n.Content[k+1]
		v, err := scalar[string](val, "a text")
		if err != nil {
			return fmt.Errorf("%s: %w", key.Value, err)
		}
		switch key.Value {
		case "method":
			m.Method = v
		case "tool":
			m.Tool = v
		case "dir":
			m.Dir = v
		default:
			return fmt.Errorf("unknown key %q; match takes method, tool and dir", key.Value)
		}
	}
	return nil
}

func faultDuration(n *yaml.Node) (time.Duration, error) {
	s, err := scalar[string](n, "a duration")
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 500ms or 2s", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%s: a delay is longer than zero", d)
	}
	return d, nil
}

func faultCount(n *yaml.Node) (int, error) {
	c, err := scalar[int](n, "a whole number")
	if err == nil && c < 0 {
		err = fmt.Errorf("%d: a count is zero or more", c)
	}
	return c, err
}
