package schemaform

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// build makes the arguments object from the fields. Fields whose text does
// not parse are reported and left out (or, lenient, kept as strings).
func (f *Form) build(lenient bool) (json.RawMessage, []FieldError) {
	var errs []FieldError
	if f.root == nil {
		return json.RawMessage("{}"), nil
	}
	return f.object(f.root, lenient, &errs), errs
}

// object builds the object of a group. An optional nested object with
// nothing filled in is left out (nil); a required one is at least {}.
func (f *Form) object(n *node, lenient bool, errs *[]FieldError) json.RawMessage {
	var members []member
	for _, c := range n.children {
		var v json.RawMessage
		if c.kind == kindGroup {
			v = f.object(c, lenient, errs)
		} else {
			var err error
			if v, err = f.fields[c].value(lenient); err != nil {
				*errs = append(*errs, FieldError{Path: c.path, Message: err.Error()})
				continue
			}
		}
		if v != nil {
			members = append(members, member{Key: c.name, Value: v})
		}
	}
	members = append(members, f.extras[n]...)
	if len(members) == 0 && n.path != "" && !n.required {
		return nil
	}
	return encodeObject(members)
}

// encodeObject writes members as a JSON object, in order.
func encodeObject(members []member) json.RawMessage { return jsonrpc.EncodeObject(members) }

// prefillDefaults shows the schema's defaults: each field's own, then the
// default of each enclosing object over them.
func (f *Form) prefillDefaults(n *node) {
	for _, c := range n.children {
		if c.kind == kindGroup {
			f.prefillDefaults(c)
			if c.def != nil {
				f.prefill(c, c.def)
			}
		} else if c.def != nil {
			f.fields[c].set(c.def)
		}
	}
}

// prefill shows the members of a JSON object in the fields of group n.
// Members without a field are kept as extras, sent back as they are.
func (f *Form) prefill(n *node, raw json.RawMessage) {
	obj, ok := decodeObj(raw)
	if !ok {
		return
	}
	f.extras[n] = nil
	for _, k := range orderedKeys(raw) {
		c := child(n, k)
		switch {
		case c == nil:
			f.extras[n] = append(f.extras[n], member{Key: k, Value: obj[k]})
		case c.kind == kindGroup:
			f.prefill(c, obj[k])
		default:
			f.fields[c].set(obj[k])
		}
	}
}

// child returns the child of n for a property key.
func child(n *node, key string) *node {
	for _, c := range n.children {
		if c.name == key {
			return c
		}
	}
	return nil
}

// reset empties every field and forgets the extras.
func (f *Form) reset() {
	for _, fl := range f.fields {
		fl.set(nil)
	}
	clear(f.extras)
}
