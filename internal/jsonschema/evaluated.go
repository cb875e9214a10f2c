package jsonschema

import "strconv"

// evaluated is what a schema evaluated of a value (its annotations), which
// unevaluatedProperties and unevaluatedItems leave alone. It is kept only
// when the schema uses them; every method does nothing on nil.
type evaluated struct {
	properties map[string]struct{}
	allProps   bool
	items      int // the items before this index
	some       map[int]struct{}
}

// merge adds what a passing in-place subschema evaluated.
func (e *evaluated) merge(o *evaluated) {
	if e == nil || o == nil {
		return
	}
	e.allProps = e.allProps || o.allProps
	for p := range o.properties {
		e.addProperty(p)
	}
	e.items = max(e.items, o.items)
	for i := range o.some {
		e.addItem(i)
	}
}

func (e *evaluated) addProperty(name string) {
	if e == nil {
		return
	}
	if e.properties == nil {
		e.properties = map[string]struct{}{}
	}
	e.properties[name] = struct{}{}
}

func (e *evaluated) addItems(upTo int) {
	if e != nil {
		e.items = max(e.items, upTo)
	}
}

func (e *evaluated) addItem(i int) {
	if e == nil {
		return
	}
	if e.some == nil {
		e.some = map[int]struct{}{}
	}
	e.some[i] = struct{}{}
}

func (e *evaluated) hasProperty(name string) bool {
	_, ok := e.properties[name]
	return e.allProps || ok
}

func (e *evaluated) hasItem(i int) bool {
	_, ok := e.some[i]
	return i < e.items || ok
}

// unevaluated applies unevaluatedProperties and unevaluatedItems to what
// nothing else evaluated; ev is not nil here.
func (v *validation) unevaluated(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	if s := n.unevaluatedProperties; s != nil && inst.kind == kindObject {
		var names []string
		for _, m := range inst.members {
			if ev.hasProperty(m.name) {
				continue
			}
			if s.isFalse() {
				names = append(names, m.name)
				continue
			}
			f, _ := v.eval(s, m.val, append(path, m.name))
			*fails = append(*fails, f...)
		}
		if len(names) > 0 {
			*fails = append(*fails, fail(path, "unevaluatedProperties", UnevaluatedProperties{Properties: names}))
		}
		ev.allProps = true
	}
	if s := n.unevaluatedItems; s != nil && inst.kind == kindArray {
		var indexes []int
		for i, it := range inst.items {
			if ev.hasItem(i) {
				continue
			}
			if s.isFalse() {
				indexes = append(indexes, i)
				continue
			}
			f, _ := v.eval(s, it, append(path, strconv.Itoa(i)))
			*fails = append(*fails, f...)
		}
		if len(indexes) > 0 {
			*fails = append(*fails, fail(path, "unevaluatedItems", UnevaluatedItems{Indexes: indexes}))
		}
		ev.addItems(len(inst.items))
	}
}
