package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// kind is one of the four listings an Offer holds.
type kind int

const (
	kindTool kind = iota
	kindPrompt
	kindResource
	kindTemplate
)

// listing is the member of a list result a kind's entries come from.
var listing = [...]string{"tools", "prompts", "resources", "resourceTemplates"}

// noun is how a finding's subject names a kind.
var noun = [...]string{"tool", "prompt", "resource", "resource template"}

// subjectMax is the most bytes of a name a subject quotes.
const subjectMax = 200

// entry is one listed item, decoded.
type entry struct {
	kind  kind
	index int
	order int    // its place across the whole offer
	path  string // "$.tools[3]"
	raw   json.RawMessage
	obj   map[string]any // nil when the entry is not a JSON object
	err   error          // why obj is nil
	depth int            // how deep the entry's JSON nests
	name  string         // its name (a resource's uri when it has none)
	label string         // the subject of a finding about a whole listing
}

// subject names the entry in a finding: `tool "echo"`, or `tool #3` when
// it has no name.
func (e *entry) subject() string {
	if e.label != "" {
		return e.label
	}
	if e.name != "" {
		return noun[e.kind] + " " + termtext.QuoteMax(e.name, subjectMax)
	}
	return noun[e.kind] + " #" + strconv.Itoa(e.index)
}

// kindName names the entry's listing in a Finding's Kind: "tool",
// "prompt", "resource" or "resourceTemplate".
var kindName = [...]string{"tool", "prompt", "resource", "resourceTemplate"}

// about sets f's Subject, Kind and Name from the entry: every rule's
// finding says which entry it concerns in words and as fields.
func (e *entry) about(f Finding) Finding {
	f.Subject = e.subject()
	f.Kind = kindName[e.kind]
	switch {
	case e.label != "":
	case e.name != "":
		f.Name = e.name
	default:
		f.Name = "#" + strconv.Itoa(e.index)
	}
	return f
}

// str is the string member key of the entry, and whether it is one.
func (e *entry) str(key string) (string, bool) {
	s, ok := e.obj[key].(string)
	return s, ok
}

// offer is an Offer decoded for the rules.
type offer struct {
	version   string
	transport string
	entries   [4][]*entry
}

// modern reports whether the session speaks the 2026-07-28 revision or a
// later one (versions are dates, so they compare as text).
func (o *offer) modern() bool { return o.version >= "2026-07-28" }

// decodeOffer decodes every entry of o. An entry that is not a JSON
// object keeps a nil obj; the listing rule reports it.
func decodeOffer(o Offer) *offer {
	off := &offer{version: o.ProtocolVersion, transport: o.Transport}
	order := 0
	for k, items := range [...][]json.RawMessage{o.Tools, o.Prompts, o.Resources, o.ResourceTemplates} {
		for i, raw := range items {
			e := &entry{kind: kind(k), index: i, order: order, raw: raw,
				path: "$." + listing[k] + "[" + strconv.Itoa(i) + "]"}
			order++
			e.obj, e.err = decodeObject(raw)
			e.depth = nesting(raw)
			e.name, _ = e.str("name")
			if e.name == "" && e.kind == kindResource {
				e.name, _ = e.str("uri")
			}
			off.entries[k] = append(off.entries[k], e)
		}
	}
	return off
}

// decodeObject decodes a JSON object keeping numbers as json.Number (so
// 1 and 1.5 stay told apart), or says why it cannot. encoding/json
// refuses nesting past its own limit, so a hostile depth is an error
// here, not a crash.
func decodeObject(raw json.RawMessage) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// nesting is how deeply raw's arrays and objects nest.
func nesting(raw []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range raw {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// toolsListing is the whole tools/list as the subject of a finding.
func toolsListing() *entry {
	return &entry{kind: kindTool, order: -1, path: "$.tools", label: "tools/list"}
}
