package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// specToolName is the tool name format of the 2025-11-25 revision
// ("Tool names", SEP-986): 1 to 128 characters, ASCII letters, digits,
// underscore, hyphen and dot.
var specToolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// portableToolName is what hosts that hand tools to model APIs accept:
// GitHub Copilot refuses a name outside [a-zA-Z0-9_-], and Claude Code
// prefixes mcp__SERVER__ to a name the Anthropic API caps at 64.
var portableToolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// nameSeparators are dropped when names are folded for comparison.
var nameSeparators = strings.NewReplacer("_", "", "-", "", ".", "", "/", "", " ", "")

// foldName is a tool name with case and separators folded: get_user,
// getUser and Get-User fold alike.
func foldName(s string) string { return strings.ToLower(nameSeparators.Replace(s)) }

// checkToolNames reports tool names outside the specification's format,
// names some hosts refuse, and names that differ only in case or
// separators.
func checkToolNames(o *offer, r *report) {
	folded := map[string]*entry{}
	for _, e := range o.entries[kindTool] {
		name, ok := e.str("name")
		if !ok || name == "" {
			continue // listing-malformed
		}
		path := member(e.path, "name")
		switch {
		case !specToolName.MatchString(name):
			r.add("tool-name-invalid", e, path, nameProblem(name), "")
		case !portableToolName.MatchString(name):
			r.add("tool-name-portable", e, path, "the name is longer than 64 characters or holds a dot, which GitHub Copilot and Claude Code (with its mcp__SERVER__ prefix) refuse", "")
		}
		f := foldName(name)
		if first, dup := folded[f]; dup && first.name != name {
			r.add("tool-name-near-duplicate", e, path, fmt.Sprintf("the name differs from that of %s only in case or separators", first.subject()), "")
			continue
		}
		if _, dup := folded[f]; !dup {
			folded[f] = e
		}
	}
}

// maxTools is the most tools GitHub Copilot (VS Code, JetBrains,
// Eclipse) sends in one request; it refuses the request past it, and
// the count includes its own tools and every other server's.
const maxTools = 128

// checkToolCount reports a tools/list longer than maxTools.
func checkToolCount(o *offer, r *report) {
	if n := len(o.entries[kindTool]); n > maxTools {
		whole := &entry{kind: kindTool, order: -1, path: "$.tools", label: "tools/list"}
		r.add("tool-count", whole, whole.path, fmt.Sprintf("the server lists %d tools; GitHub Copilot refuses a request carrying more than %d, its own and other servers' tools included", n, maxTools), "")
	}
}

// nameProblem says how a tool name breaks the specification's format:
// its length, or the characters it may not hold.
func nameProblem(name string) string {
	if n := utf8.RuneCountInString(name); n > 128 {
		return fmt.Sprintf("the name is %d characters long, more than the 128 the specification allows", n)
	}
	var bad []string
	for _, c := range name {
		if s := string(c); !specToolName.MatchString(s) && !slices.Contains(bad, s) {
			bad = append(bad, s)
		}
	}
	return "the name holds " + quote(strings.Join(bad, "")) + ", outside the A-Z, a-z, 0-9, _, - and . the specification allows"
}
