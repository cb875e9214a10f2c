package tokencost

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// DefaultWindow is the context window a total is a share of: 200,000
// tokens, the window of today's large models.
const DefaultWindow = 200_000

// The kinds of entry a table counts, named as the listings name them.
const (
	KindTool             = "tool"
	KindPrompt           = "prompt"
	KindResourceTemplate = "resourceTemplate"
)

// kindOrder breaks ties between entries of the same cost.
var kindOrder = map[string]int{KindTool: 0, KindPrompt: 1, KindResourceTemplate: 2}

// Entry is one thing a server lists, as it listed it.
type Entry struct {
	Kind string          // KindTool, KindPrompt or KindResourceTemplate
	Name string          // its name
	JSON json.RawMessage // its listing object, as received

	model bool // count what a host sends the model (ForModel), not all of JSON
}

// Entries turns one listing (every page of tools/list, say) into entries
// of kind. An entry is named by its "name" member, a resource template
// without one by its "uriTemplate", and anything else by its place in
// the listing ("#3").
func Entries(kind string, list []json.RawMessage) []Entry {
	out := make([]Entry, 0, len(list))
	for i, raw := range list {
		out = append(out, Entry{Kind: kind, Name: entryName(raw, i), JSON: raw})
	}
	return out
}

// entryName is the name an entry goes by in a table.
func entryName(raw json.RawMessage, i int) string {
	var m struct {
		Name        any `json:"name"`
		URITemplate any `json:"uriTemplate"`
	}
	_ = json.Unmarshal(raw, &m) // an entry that is no object keeps its place as its name
	for _, v := range []any{m.Name, m.URITemplate} {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	return fmt.Sprintf("#%d", i)
}

// Text is what an entry costs: its JSON without insignificant white space
// (after ForModel, only the members a host sends the model). JSON that
// does not parse is counted as it is.
func (e Entry) Text() string {
	if e.model {
		if text, ok := e.modelText(); ok {
			return text
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, e.JSON) != nil {
		return string(e.JSON)
	}
	return b.String()
}

// What a table counts of each entry: what a host puts in the model's
// context (CountModel, the default), or the whole listing entry
// (CountEntry).
const (
	CountModel = "model"
	CountEntry = "entry"
)

// modelMembers are the members of an entry a host sends the model, in
// the order a host writes them: a tool becomes a function-calling
// definition (name, description, input schema: no icons, annotations,
// output schema or _meta), a prompt its name, description and arguments,
// a resource template its URI template, name, description and type.
var modelMembers = map[string][]string{
	KindTool:             {"name", "description", "inputSchema"},
	KindPrompt:           {"name", "description", "arguments"},
	KindResourceTemplate: {"uriTemplate", "name", "description", "mimeType"},
}

// ForModel returns e counted as what a host puts in the model's context
// (modelMembers), each member's value as the server sent it; its JSON
// stays the whole entry, cut only when Text is asked for, so a listing of
// 100,000 tools is not held twice. An entry that is not a JSON object is
// counted whole.
func (e Entry) ForModel() Entry {
	e.model = true
	return e
}

// modelText is the compact JSON of the members of e a host sends the
// model; ok is false when e is not a JSON object.
func (e Entry) modelText() (string, bool) {
	members := modelMembers[e.Kind]
	var obj map[string]json.RawMessage
	if members == nil || json.Unmarshal(e.JSON, &obj) != nil || obj == nil {
		return "", false
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, m := range members {
		v, ok := obj[m]
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(m)
		b.Write(key)
		b.WriteByte(':')
		if json.Compact(&b, v) != nil {
			b.Write(v)
		}
	}
	b.WriteByte('}')
	return b.String(), true
}

// Item is what one entry costs in each encoding.
type Item struct {
	Kind   string         `json:"kind"`
	Name   string         `json:"name"`
	Tokens map[string]int `json:"tokens"` // encoding → tokens
}

// Table is what everything a server lists costs, the dearest first.
type Table struct {
	Counted   string         `json:"counted"` // CountModel or CountEntry: what of each entry was counted
	Encodings []string       `json:"encodings"`
	Items     []Item         `json:"items"`
	Total     map[string]int `json:"total"`               // encoding → the sum of the items
	Window    int            `json:"window"`              // the context window Share divides by
	Uncounted int            `json:"uncounted,omitempty"` // entries not counted: counting stopped (--max-time) before them
}

// Measure counts every entry in every encoding (an encoding named twice
// counts once) and sorts the items by their cost in the first encoding,
// the dearest first (ties in listing order: tools, prompts, then resource
// templates). It stops at ctx's end (see CountContext): then it returns,
// beside the error, the table of the entries counted so far, with
// Uncounted saying how many were not.
func Measure(ctx context.Context, encodings []string, window int, entries []Entry) (Table, error) {
	encodings = Unique(encodings)
	if len(encodings) == 0 {
		return Table{}, fmt.Errorf("no tokenizer encoding to count with")
	}
	if window <= 0 {
		return Table{}, fmt.Errorf("the context window must be positive, got %d", window)
	}
	t := Table{Encodings: encodings, Items: make([]Item, 0, len(entries)), Total: map[string]int{}, Window: window}
	for _, enc := range encodings {
		t.Total[enc] = 0
	}
	var err error
	for i, e := range entries {
		if err = t.add(ctx, e); err != nil {
			t.Uncounted = len(entries) - i
			break
		}
	}
	t.sort()
	return t, err
}

// add counts e in every encoding of t and adds it to t, or leaves t as
// it is on an error.
func (t *Table) add(ctx context.Context, e Entry) error {
	text := e.Text()
	it := Item{Kind: e.Kind, Name: e.Name, Tokens: make(map[string]int, len(t.Encodings))}
	for _, enc := range t.Encodings {
		n, err := CountContext(ctx, enc, text)
		if err != nil {
			return fmt.Errorf("%s %s: %w", e.Kind, e.Name, err)
		}
		it.Tokens[enc] = n
	}
	for enc, n := range it.Tokens {
		t.Total[enc] += n
	}
	t.Items = append(t.Items, it)
	return nil
}

// Unique is encodings with each named once, in the order first named.
func Unique(encodings []string) []string {
	out := make([]string, 0, len(encodings))
	for _, enc := range encodings {
		if !slices.Contains(out, enc) {
			out = append(out, enc)
		}
	}
	return out
}

// sort orders the items by their cost in the first encoding, the
// dearest first, ties in listing order of kinds.
func (t *Table) sort() {
	first := t.Encodings[0]
	slices.SortStableFunc(t.Items, func(a, b Item) int {
		return cmp.Or(cmp.Compare(b.Tokens[first], a.Tokens[first]), cmp.Compare(kindOrder[a.Kind], kindOrder[b.Kind]))
	})
}

// Share is the part of the window the total of encoding fills, in percent.
func (t Table) Share(encoding string) float64 {
	if t.Window <= 0 {
		return 0
	}
	return 100 * float64(t.Total[encoding]) / float64(t.Window)
}
