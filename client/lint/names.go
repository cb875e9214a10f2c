package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// specToolName is the tool name format of the 2025-11-25 revision
// ("Tool names", SEP-986): 1 to 128 characters, ASCII letters, digits,
// underscore, hyphen and dot.
var specToolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`) }) // compiled on first use

// portableToolName are the characters hosts that hand tools to model
// APIs accept: GitHub Copilot CLI, OpenAI's API (as Codex sends it) and
// Claude Desktop refuse any other, VS Code's Copilot renames a dot.
var portableToolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) }) // compiled on first use

// modelNameMax is the longest tool name the Anthropic API accepts, and
// hostPrefix the room a host's prefix takes of it: Claude Code sends a
// tool as mcp__SERVER__NAME, 7 characters and the server's name (20
// leaves a server name of 13).
const (
	modelNameMax = 64
	hostPrefix   = 20
)

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
		case !specToolName().MatchString(name):
			r.add("tool-name-invalid", e, path, nameProblem(name), "")
		case !portableToolName().MatchString(name):
			r.add("tool-name-portable", e, path, "the name holds a dot, which GitHub Copilot CLI, OpenAI's API (as Codex sends it) and Claude Desktop refuse, failing the request; VS Code's Copilot warns and renames the tool", "")
		case len(name)+hostPrefix > modelNameMax:
			r.add("tool-name-portable", e, path, prefixedTooLong(len(name)), "")
		}
		f := foldName(name)
		switch first, dup := folded[f]; {
		case !dup:
			folded[f] = e
		case first.name != name:
			r.add("tool-name-near-duplicate", e, path, fmt.Sprintf("the name differs from that of %s only in case or separators", first.subject()), "")
		}
	}
}

// maxTools is the most tools GitHub Copilot's model API takes in one
// request, its own tools and every other server's included. VS Code's
// Copilot now groups the tools past it behind activate_* tools the model
// must call first; its older versions, and other clients of that API,
// fail the request.
const maxTools = 128

// checkToolCount reports a tools/list longer than maxTools.
func checkToolCount(o *offer, r *report) {
	if n := len(o.entries[kindTool]); n > maxTools {
		whole := toolsListing()
		r.add("tool-count", whole, whole.path, fmt.Sprintf("the server lists %d tools, more than the %d GitHub Copilot's model API takes in one request with the host's own tools and other servers' counted in: VS Code's Copilot hides the rest behind activate_* groups the model must open first, and older versions and other clients of that API fail the request", n, maxTools), "")
	}
}

// prefixedTooLong says how a name of n characters fares under Claude
// Code's mcp__SERVER__ prefix and the Anthropic API's 64.
func prefixedTooLong(n int) string {
	room := modelNameMax - len("mcp____") - n
	if room < 1 {
		return fmt.Sprintf("the name is %d characters long; Claude Code sends it as mcp__SERVER__NAME, which no server name keeps within the %d characters the Anthropic API accepts, so every request that carries the tool fails", n, modelNameMax)
	}
	return fmt.Sprintf("the name is %d characters long; Claude Code sends it as mcp__SERVER__NAME, which the Anthropic API caps at %d characters, so a server configured under a name longer than %d makes every request that carries the tool fail", n, modelNameMax, room)
}

// nameProblem says how a tool name breaks the specification's format:
// its length, or the characters it may not hold.
func nameProblem(name string) string {
	if n := utf8.RuneCountInString(name); n > 128 {
		return fmt.Sprintf("the name is %d characters long, more than the 128 the specification allows", n)
	}
	var bad []string
	for _, c := range name {
		if s := string(c); !specToolName().MatchString(s) && !slices.Contains(bad, s) {
			bad = append(bad, s)
		}
	}
	return "the name holds " + quote(strings.Join(bad, "")) + ", outside the A-Z, a-z, 0-9, _, - and . the specification allows"
}
