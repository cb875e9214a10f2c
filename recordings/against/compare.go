package against

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// volatileNames are the members replay --against never compares, at any
// depth: they differ between two runs of the same server. The JSON-RPC
// envelope (jsonrpc, id) is never compared either: only result or error.
var volatileNames = []string{
	"_meta", "sessionId", "requestId", "progressToken", "taskId",
	"timestamp", "createdAt", "updatedAt", "lastUpdatedAt", "lastActivityAt", "expiresAt",
}

// IsVolatile reports whether a member of this name is one replay
// --against never compares.
func IsVolatile(name string) bool { return slices.Contains(volatileNames, name) }

// keyedLists are the lists of a result matched by a member instead of by
// position, and how a difference names their items.
var keyedLists = []struct{ list, member, noun string }{
	{"tools", "name", "tool"},
	{"prompts", "name", "prompt"},
	{"resources", "uri", "resource"},
	{"resourceTemplates", "uriTemplate", "resource template"},
}

// diffValueMax is how much of a value a difference line shows.
const diffValueMax = 200

// CompareOptions are the comparison's options: the volatile names and the
// ignore paths (jsondiff patterns) skipped, the keyed lists matched by key.
// A path that does not parse is named in the error.
func CompareOptions(ignore []string) (jsondiff.Options, error) {
	var o jsondiff.Options
	for _, name := range volatileNames {
		o.Ignore = append(o.Ignore, jsondiff.MustPattern("$.."+name))
	}
	for _, src := range ignore {
		p, err := jsondiff.ParsePattern(src)
		if err != nil {
			return o, fmt.Errorf("%s: %w", termtext.Quote(src), err)
		}
		o.Ignore = append(o.Ignore, p)
	}
	for _, k := range keyedLists {
		o.Keyed = append(o.Keyed, jsondiff.Keyed{Array: jsondiff.MustPattern("$.result." + k.list), Member: k.member})
	}
	return o, nil
}

// answerDocument is an answer as replay --against compares it:
// {"result":…} or {"error":{"code","message","data"}}.
func answerDocument(result json.RawMessage, e *jsonrpc.Error) []byte {
	doc := struct {
		Result json.RawMessage `json:"result,omitempty"`
		Error  *jsonrpc.Error  `json:"error,omitempty"`
	}{Error: e}
	if e == nil {
		doc.Result = result
		if len(bytes.TrimSpace(result)) == 0 {
			doc.Result = json.RawMessage("null")
		}
	}
	b, err := json.Marshal(doc)
	if err != nil { // a result that is not JSON: compared as text
		b, _ = json.Marshal(map[string]string{"result": string(result)})
	}
	return b
}

// engineMeta are the _meta members the engine adds to a request itself:
// a recorded request loses them, the new session adds its own.
var engineMeta = []string{mcp.MetaProtocolVersion, mcp.MetaClientInfo, mcp.MetaClientCapabilities, mcp.MetaProgressToken}

// withoutEngineMeta returns params without the engine's _meta members
// (and without _meta when nothing else is in it).
func withoutEngineMeta(params json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if !bytes.Contains(params, []byte(`"_meta"`)) || json.Unmarshal(params, &obj) != nil {
		return params
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(obj["_meta"], &meta) != nil {
		return params
	}
	for _, k := range engineMeta {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(obj, "_meta")
	} else if b, err := json.Marshal(meta); err == nil {
		obj["_meta"] = b
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return params
	}
	return b
}

// answerDiffs compares a recorded answer with the new one and returns the
// lines that say how they differ: none when they are equal.
func answerDiffs(want, got []byte, o jsondiff.Options) []string {
	wv, werr := jsondiff.Decode(want)
	gv, gerr := jsondiff.Decode(got)
	if werr != nil || gerr != nil {
		if bytes.Equal(want, got) {
			return nil
		}
		return []string{fmt.Sprintf("the answers differ, and cannot be compared by path: %v", cmp.Or(werr, gerr))}
	}
	rep := jsondiff.Compare(wv, gv, o)
	lines := itemLines(rep.Diffs)
	for _, d := range rep.Diffs {
		lines = append(lines, d.Line(diffValueMax))
	}
	if rep.Omitted > 0 {
		lines = append(lines, "… and "+plural.Count(rep.Omitted, "more difference", "more differences"))
	}
	return lines
}

// itemChange is what happened to one item of a keyed list.
type itemChange struct {
	noun, key string
	kind      jsondiff.Kind
	aspects   []string // for a changed item: what changed in it
}

// itemLines names the items of keyed lists (tools, prompts, resources)
// that were added, removed or changed, and for a changed one what changed
// in it: `tool "echo" changed: description, schema`.
func itemLines(diffs []jsondiff.Difference) []string {
	var items []*itemChange
	byKey := map[string]*itemChange{}
	for _, d := range diffs {
		p := d.Path()
		if len(p) < 3 || p[0].Name != "result" || !p[2].HasKey {
			continue
		}
		noun := keyedNoun(p[1].Name)
		id := noun + "\x00" + p[2].Key
		it := byKey[id]
		if it == nil {
			it = &itemChange{noun: noun, key: p[2].Key, kind: jsondiff.Changed}
			byKey[id] = it
			items = append(items, it)
		}
		if len(p) == 3 {
			it.kind = d.Kind
			continue
		}
		if a := aspectName(p[3]); !slices.Contains(it.aspects, a) {
			it.aspects = append(it.aspects, a)
		}
	}
	lines := make([]string, 0, len(items))
	for _, it := range items {
		line := it.noun + " " + termtext.Quote(it.key) + " "
		switch it.kind {
		case jsondiff.Added:
			line += "added"
		case jsondiff.Removed:
			line += "removed"
		default:
			line += "changed: " + strings.Join(it.aspects, ", ")
		}
		lines = append(lines, line)
	}
	return lines
}

// keyedNoun names an item of the keyed list.
func keyedNoun(list string) string {
	for _, k := range keyedLists {
		if k.list == list {
			return k.noun
		}
	}
	return "item"
}

// aspectName names what changed in an item by its member: the schemas by
// what they are, anything else by its name.
func aspectName(s jsondiff.Segment) string {
	switch {
	case s.IsIndex:
		return fmt.Sprintf("[%d]", s.Index)
	case s.Name == "inputSchema":
		return "schema"
	case s.Name == "outputSchema":
		return "output schema"
	}
	return termtext.OneLine(s.Name)
}
