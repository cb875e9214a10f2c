package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"charm.land/bubbles/v2/help"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Options configure a Form.
type Options struct {
	// Title is shown above the fields ("" for none).
	Title string
	// Defaults is a JSON object of initial values; they win over the
	// schema's own defaults. Keys the form has no field for are kept and
	// sent as they are.
	Defaults json.RawMessage
	// Dark picks the styles for a dark background.
	Dark bool
}

// row is one line group of the form: a field, or the header of a nested
// object (f is nil).
type row struct {
	n     *node
	f     field
	depth int
}

// member is one key of a JSON object with its raw value.
type member = jsonrpc.Member

// Form is a form generated from a JSON Schema. It is a plain component:
// the root forwards messages to Update and draws Render.
type Form struct {
	root     *node // nil when the schema is beyond the form
	rows     []row
	focused  int // index in rows of the focused field, -1 with no field
	fields   map[*node]field
	extras   map[*node][]member // keys of a prefill that have no field
	check    *validator
	errs     []FieldError // shown after a refused submit
	shown    bool         // errors are on screen and follow each edit
	editor   *JSONEditor  // non-nil while the JSON editor is open
	suggest  *suggestList // suggestions open under the focused field (suggest.go)
	fallback string       // why the schema is beyond the form
	title    string
	keys     KeyMap
	styles   Styles
	w, h     int
	offset   int // first line drawn
}

// New builds the form of a JSON Schema (a tool's inputSchema or an
// elicitation's requestedSchema). A schema the form cannot express is not
// an error: the form opens its JSON editor instead (see Fallback). The
// error is for input that is not a schema at all, or Defaults that are not
// a JSON object.
func New(schema json.RawMessage, opts Options) (*Form, error) {
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 || !json.Valid(schema) || (schema[0] != '{' && schema[0] != 't' && schema[0] != 'f') {
		return nil, errors.New("the schema is not a JSON object")
	}
	defaults := bytes.TrimSpace(opts.Defaults)
	if len(defaults) > 0 && string(defaults) != "null" {
		if _, ok := decodeObj(defaults); !ok {
			return nil, errors.New("the defaults are not a JSON object")
		}
	} else {
		defaults = nil
	}
	f := &Form{
		focused: -1,
		fields:  map[*node]field{},
		extras:  map[*node][]member{},
		check:   compile(schema),
		title:   opts.Title,
		keys:    DefaultKeyMap(),
		styles:  DefaultStyles(opts.Dark),
	}
	root, err := parse(schema)
	var un *unsupportedError
	switch {
	case errors.As(err, &un):
		f.fallback = un.Error()
		initial := defaults
		if initial == nil {
			initial = json.RawMessage("{}")
		}
		f.editor = newEditor(f.check, initial, &f.styles)
		f.editor.banner = "This schema cannot be shown as a form (" + f.fallback + "); edit the arguments as JSON."
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("the schema cannot be read: %w", err)
	}
	f.root = root
	f.layout(root, 0)
	f.prefillDefaults(root)
	if defaults != nil {
		f.prefill(root, defaults)
	}
	f.focusRow(f.nextField(-1, 1))
	return f, nil
}

// layout flattens the node tree into rows and makes the fields.
func (f *Form) layout(n *node, depth int) {
	for _, c := range n.children {
		if c.kind == kindGroup {
			f.rows = append(f.rows, row{n: c, depth: depth})
			f.layout(c, depth+1)
			continue
		}
		fl := newField(c, &f.styles)
		f.fields[c] = fl
		f.rows = append(f.rows, row{n: c, f: fl, depth: depth})
	}
}

// Fallback says why the schema cannot be drawn as a form; "" when it can.
// With a fallback, the form is its JSON editor for good.
func (f *Form) Fallback() string { return f.fallback }

// EditingJSON reports whether the JSON editor is open.
func (f *Form) EditingJSON() bool { return f.editor != nil }

// SchemaError says why the schema could not be compiled for validation
// (values are then not checked); nil when it compiled.
func (f *Form) SchemaError() error { return f.check.err }

// SetSize sets the size the form is drawn at.
func (f *Form) SetSize(w, h int) {
	f.w, f.h = w, h
	if f.editor != nil {
		f.editor.SetSize(w, h)
	}
}

// SetDark switches the styles between dark and light backgrounds.
func (f *Form) SetDark(dark bool) {
	f.styles = DefaultStyles(dark)
	for _, fl := range f.fields {
		if t, ok := fl.(*textField); ok {
			t.in.SetStyles(f.styles.Input)
		}
	}
	if f.editor != nil {
		f.editor.restyle(&f.styles)
	}
}

// KeyMap returns the keys that apply right now, for the help bar.
func (f *Form) KeyMap() help.KeyMap {
	if f.editor != nil {
		return f.keys.editorHelp(f.root != nil)
	}
	if f.SuggestionsOpen() {
		return f.keys.suggestHelp()
	}
	k := kindGroup
	if f.focused >= 0 {
		k = f.rows[f.focused].n.kind
	}
	return f.keys.formHelp(k, f.focused >= 0)
}

// Value returns the arguments object built from the fields (or from the
// JSON editor while it is open): empty optional fields are left out,
// numbers keep the digits typed. The error lists the fields whose text
// does not parse; the value is not checked against the schema (Validate).
func (f *Form) Value() (json.RawMessage, error) {
	if f.editor != nil {
		return f.editor.Value()
	}
	v, errs := f.build(false)
	if len(errs) > 0 {
		joined := make([]error, len(errs))
		for i, e := range errs {
			joined[i] = e
		}
		return nil, fmt.Errorf("the form has fields that do not parse: %w", errors.Join(joined...))
	}
	return v, nil
}

// Validate checks the value against the whole schema and returns every
// problem at its field's JSON pointer; nil when the value is valid.
func (f *Form) Validate() []FieldError {
	if f.editor != nil {
		return f.editor.Validate()
	}
	v, errs := f.build(false)
	parsed := len(errs)
	for _, e := range f.check.check(v) {
		if !hasPath(errs[:parsed], e.Path) {
			errs = append(errs, e)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return f.rowOf(errs[i].Path) < f.rowOf(errs[j].Path) })
	return errs
}

func hasPath(errs []FieldError, path string) bool {
	for _, e := range errs {
		if e.Path == path {
			return true
		}
	}
	return false
}
