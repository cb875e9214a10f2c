package proxy

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
)

// Filter picks messages by what they are: a method (a glob such as
// "tools/*", where '*' also matches '/'), a tool name (the name of a tools/call, or of the call a
// response answers) and a direction. An empty field matches anything; a
// response matches by the method and tool of the request it answers.
type Filter struct {
	Method string `json:"method,omitempty" yaml:"method,omitempty"`
	Tool   string `json:"tool,omitempty" yaml:"tool,omitempty"`
	// Dir is "host" (host → server, also "out"), "server" (server → host,
	// also "in") or "" for both.
	Dir string `json:"dir,omitempty" yaml:"dir,omitempty"`
}

// Check says what is wrong with f, or nil.
func (f Filter) Check() error {
	if _, err := path.Match(f.Method, ""); err != nil {
		return fmt.Errorf("method %q is not a valid pattern: %w", f.Method, err)
	}
	if _, err := path.Match(f.Tool, ""); err != nil {
		return fmt.Errorf("tool %q is not a valid pattern: %w", f.Tool, err)
	}
	if _, ok := dirOf(f.Dir); !ok {
		return fmt.Errorf("direction %q is neither host (out) nor server (in)", f.Dir)
	}
	return nil
}

// dirOf reads a Filter's direction; any is set for "".
func dirOf(s string) (d struct {
	any bool
	dir capture.Dir
}, ok bool) {
	switch strings.ToLower(s) {
	case "":
		d.any = true
	case "host", "out", "host→server", "request", "requests":
		d.dir = capture.Out
	case "server", "in", "server→host":
		d.dir = capture.In
	default:
		return d, false
	}
	return d, true
}

// Match says whether f picks a message going dir whose method and tool
// (or those of the request it answers) are method and tool.
func (f Filter) Match(dir capture.Dir, method, tool string) bool {
	d, ok := dirOf(f.Dir)
	if !ok || (!d.any && d.dir != dir) {
		return false
	}
	return glob(f.Method, method) && glob(f.Tool, tool)
}

// everyMessage is how the empty filter is written.
const everyMessage = "every message"

// String renders f the way the status bar and the marks say it.
func (f Filter) String() string {
	var parts []string
	if f.Method != "" {
		parts = append(parts, "method="+f.Method)
	}
	if f.Tool != "" {
		parts = append(parts, "tool="+f.Tool)
	}
	if f.Dir != "" {
		parts = append(parts, "dir="+f.Dir)
	}
	if len(parts) == 0 {
		return everyMessage
	}
	return strings.Join(parts, " ")
}

// ParseFilter reads a filter written as String writes it: space-separated
// method=, tool= and dir= terms; a bare word is a method; "every message"
// (or nothing) is the empty filter.
func ParseFilter(s string) (Filter, error) {
	var f Filter
	if strings.Join(strings.Fields(s), " ") == everyMessage {
		return f, nil
	}
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			k, v = "method", w
		}
		switch k {
		case "method":
			f.Method = v
		case "tool":
			f.Tool = v
		case "dir":
			f.Dir = v
		default:
			return Filter{}, fmt.Errorf("%q: a filter term is method=, tool= or dir=", w)
		}
	}
	return f, f.Check()
}

// glob matches s against pattern as path.Match does, except that '*' and
// '?' match '/' too: "*" is every method, "notifications/*" every
// notification, "file:///srv/*" every resource under /srv.
func glob(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	if !strings.ContainsAny(pattern, `*?[\`) {
		return pattern == s
	}
	ok, err := path.Match(strings.ReplaceAll(pattern, "/", "\x00"), strings.ReplaceAll(s, "/", "\x00"))
	return err == nil && ok
}
