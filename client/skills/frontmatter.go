package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"go.yaml.in/yaml/v3"
)

// maxFrontmatter bounds the YAML block parsed from a SKILL.md.
const maxFrontmatter = 64 << 10

// ParseFrontmatter reads the YAML front matter a SKILL.md starts with: a
// line "---", the YAML, a line "---". It reads the YAML as the YAML 1.2
// core schema does (a date stays a string, 0644 is 644, a null key is "")
// and returns the fields as JSON values would decode (numbers as
// float64), so that they compare with an entry's.
func ParseFrontmatter(b []byte) (map[string]any, error) {
	rest, ok := cutLine(b, "---")
	if !ok {
		return nil, errors.New(`SKILL.md does not start with a line "---"`)
	}
	var block []byte
	for found := false; !found; {
		if len(rest) == 0 {
			return nil, errors.New(`the front matter of SKILL.md has no closing line "---"`)
		}
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if string(bytes.TrimRight(line, "\r\n")) == "---" {
			found = true
			continue
		}
		if len(block)+len(line) > maxFrontmatter {
			return nil, fmt.Errorf("the front matter of SKILL.md is longer than %d bytes", maxFrontmatter)
		}
		block = append(block, line...)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		return nil, fmt.Errorf("the front matter of SKILL.md is not YAML: %w", err)
	}
	v, err := (&coreBuilder{}).value(&doc)
	if err != nil {
		return nil, fmt.Errorf("the front matter of SKILL.md: %w", err)
	}
	fields, ok := v.(map[string]any)
	switch {
	case v == nil:
		return nil, errors.New("the front matter of SKILL.md is empty")
	case !ok:
		return nil, errors.New("the front matter of SKILL.md is not a mapping of fields")
	}
	return fields, nil
}

// cutLine returns what follows b's first line when that line is want.
func cutLine(b []byte, want string) ([]byte, bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 || string(bytes.TrimSuffix(b[:i], []byte("\r"))) != want {
		return nil, false
	}
	return b[i+1:], true
}

// frontmatterProblem says how the front matter parsed from SKILL.md
// departs from the rules or from the entry's, or "".
func frontmatterProblem(parsed map[string]any, entry json.RawMessage) string {
	for _, k := range []string{"name", "description"} {
		if s, ok := parsed[k].(string); !ok || strings.TrimSpace(s) == "" {
			return fmt.Sprintf("the front matter of SKILL.md has no %s", k)
		}
	}
	if md, ok := parsed["metadata"].(map[string]any); ok {
		for k := range md {
			if strings.HasPrefix(k, mcp.MetaReservedPrefix) {
				return fmt.Sprintf("the front matter's metadata uses the reserved key %q", k)
			}
		}
	}
	var listed map[string]any
	if err := json.Unmarshal(entry, &listed); err != nil || listed == nil {
		return "the entry's frontmatter is not an object"
	}
	keys := make([]string, 0, len(parsed)+len(listed))
	for k := range parsed {
		keys = append(keys, k)
	}
	for k := range listed {
		if _, ok := parsed[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		got, inFile := parsed[k]
		want, inEntry := listed[k]
		switch {
		case !inFile:
			return fmt.Sprintf("the entry's frontmatter has %q, SKILL.md does not", k)
		case !inEntry:
			return fmt.Sprintf("SKILL.md's front matter has %q, the entry's does not", k)
		case !reflect.DeepEqual(got, want):
			return fmt.Sprintf("the front matter's %q differs: SKILL.md says %s, the entry %s", k, shown(got), shown(want))
		}
	}
	return ""
}

// shown is a short JSON rendering of a front-matter value.
func shown(v any) string {
	b, _ := json.Marshal(v)
	return termtext.Ellipsis(string(b), 80)
}
