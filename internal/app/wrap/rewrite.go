// Package wrap routes a host's MCP config entry through `mcpscope proxy`
// and back: it rewrites only the bytes of that entry's command and
// arguments (or URL) in the host's own file, keeps a backup of the file in
// mcpscope's state directory, and restores it byte for byte.
package wrap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply makes the edits, which do not overlap, on a copy of data.
func apply(data []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := slices.Clone(data)
	for _, e := range edits {
		out = slices.Concat(out[:e.start:e.start], []byte(e.text), out[e.end:])
	}
	return out
}

// jsonString renders s as a JSON string, '<' and '&' as they are.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// jsonArray renders ss as a one-line JSON array of strings.
func jsonArray(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = jsonString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ProxyArgs is the argument list of `mcpscope proxy` that runs s, the
// server as its entry writes it, as the session session with the proxy
// flags flags: -- and its command line for a stdio server; for a remote
// one, the stdio bridge to its URL with its headers (and --transport sse
// for legacy SSE).
func ProxyArgs(s mcpconfig.Server, session string, flags []string) ([]string, error) {
	args := append([]string{"proxy", "--name", session}, flags...)
	switch s.Transport {
	case "stdio":
		return append(append(args, "--", s.Command), s.Args...), nil
	case "http", "sse":
		if s.Transport == "sse" {
			args = append(args, "--transport", "sse")
		}
		for _, h := range s.Headers {
			args = append(args, "--header", h.Name+": "+h.Value)
		}
		return append(args, s.URL), nil
	}
	return nil, fmt.Errorf("a %s server cannot be wrapped: the stdio bridge speaks Streamable HTTP and legacy SSE (run mcpscope proxy --listen ADDR %s and point the host at it)", s.Transport, s.URL)
}

// urlKeys are the members that hold a remote entry's URL.
var urlKeys = []string{"url", "serverUrl"}

// Rewrite returns data with the entry at span (the server s) made to run
// `exe proxy …` (ProxyArgs, with flags): a stdio entry's command and args values are
// replaced (args added after command when it has none); a remote entry's
// URL member becomes command and args, and its type, when it has one, is
// "stdio" (VS Code's entries get one). Every byte outside the entry's
// values is kept.
func Rewrite(data []byte, span mcpconfig.EntrySpan, s mcpconfig.Server, exe, session string, flags []string) ([]byte, error) {
	args, err := ProxyArgs(s, session, flags)
	if err != nil {
		return nil, err
	}
	var edits []edit
	if s.Transport == "stdio" {
		cmd, ok := span.Member("command")
		if !ok {
			return nil, fmt.Errorf("the entry has no \"command\" to replace")
		}
		edits = append(edits, edit{cmd.ValueStart, cmd.ValueEnd, jsonString(exe)})
		if a, ok := span.Member("args"); ok {
			edits = append(edits, edit{a.ValueStart, a.ValueEnd, jsonArray(args)})
		} else {
			edits = append(edits, edit{cmd.ValueEnd, cmd.ValueEnd, `, "args": ` + jsonArray(args)})
		}
		return apply(data, edits), nil
	}
	var found []mcpconfig.Member
	for _, k := range urlKeys {
		if m, ok := span.Member(k); ok {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf("the entry has %d URL members (url, serverUrl); wrap rewrites an entry with one", len(found))
	}
	u := found[0]
	text := `"command": ` + jsonString(exe) + `, "args": ` + jsonArray(args)
	if t, ok := span.Member("type"); ok {
		edits = append(edits, edit{t.ValueStart, t.ValueEnd, `"stdio"`})
	} else if s.Format == mcpconfig.VSCode {
		text = `"type": "stdio", ` + text
	}
	edits = append(edits, edit{u.KeyStart, u.ValueEnd, text})
	return apply(data, edits), nil
}
