package jsonschema

import (
	"fmt"
	"regexp"
)

// node compiles the schema at p, once: references to it share the node.
func (c *compiler) node(p place) (*node, error) {
	if n, ok := c.nodes[p.val]; ok {
		return n, nil
	}
	n := &node{loc: p.loc, dialect: p.dialect}
	c.nodes[p.val] = n
	v := p.val
	switch v.kind {
	case kindBool:
		b := v.boolean
		n.boolean = &b
		return n, nil
	case kindObject:
	default:
		return nil, fmt.Errorf("at %s: a schema is an object or a boolean, not %s", p.loc, v.typeName())
	}
	k := &keywords{c: c, n: n, p: p}
	if r := v.lookup("$ref"); r != nil {
		if err := k.ref("$ref", r); err != nil {
			return nil, err
		}
		if p.dialect.refAlone() {
			return n, nil
		}
	}
	for _, m := range v.members {
		if !p.dialect.has(m.name) {
			continue
		}
		if err := k.read(m.name, m.val); err != nil {
			return nil, err
		}
	}
	return n, k.finish()
}

// keywords reads the keywords of one schema object into its node; those
// that depend on one another are settled by finish.
type keywords struct {
	c *compiler
	n *node
	p place

	exclusiveMinimum, exclusiveMaximum bool // draft-04 booleans
	tuple                              []*node
	tupleSet                           bool
	items, additionalItems             *node
	prefixSet                          bool
	ifThen, then, els                  *node
}

// errorf reports a keyword whose value has the wrong shape.
func (k *keywords) errorf(kw, format string, args ...any) error {
	return fmt.Errorf("at %s/%s: %s %s", k.p.loc, escapeToken(kw), kw, fmt.Sprintf(format, args...))
}

// schema compiles a subschema at path below this one.
func (k *keywords) schema(v *value, path string) (*node, error) {
	p, ok := k.c.places[v]
	if !ok {
		if err := k.c.index(place{val: v, base: k.p.base, dialect: k.p.dialect, loc: k.p.loc + path}); err != nil {
			return nil, err
		}
		p = k.c.places[v]
	}
	return k.c.node(p)
}

// schemaList compiles a non-empty array of subschemas.
func (k *keywords) schemaList(kw string, v *value) ([]*node, error) {
	if v.kind != kindArray || len(v.items) == 0 {
		return nil, k.errorf(kw, "must be a non-empty array of schemas")
	}
	out := make([]*node, len(v.items))
	for i, it := range v.items {
		n, err := k.schema(it, fmt.Sprintf("/%s/%d", escapeToken(kw), i))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// schemaMap compiles an object of subschemas.
func (k *keywords) schemaMap(kw string, v *value) ([]named, error) {
	if v.kind != kindObject {
		return nil, k.errorf(kw, "must be an object of schemas")
	}
	out := make([]named, 0, len(v.members))
	for _, m := range v.members {
		n, err := k.schema(m.val, "/"+escapeToken(kw)+"/"+escapeToken(m.name))
		if err != nil {
			return nil, err
		}
		out = append(out, named{m.name, n})
	}
	return out, nil
}

// ref queues a reference, resolved once the document is compiled.
func (k *keywords) ref(kw string, v *value) error {
	if v.kind != kindString {
		return k.errorf(kw, "must be a string")
	}
	k.c.pending = append(k.c.pending, pendingRef{from: k.n, ref: v.text, base: k.p.base, keyword: kw})
	return nil
}

// read compiles one keyword; unknown keywords are ignored.
func (k *keywords) read(kw string, v *value) error {
	n := k.n
	var err error
	switch kw {
	case "$dynamicRef", "$recursiveRef":
		err = k.ref(kw, v)
	case "type":
		n.types, err = k.typeNames(v)
	case "enum":
		n.enum, err = k.enumValues(v)
	case "const":
		n.constant = &literal{key: v.key(), want: v.toAny()}
	case "format":
		if v.kind != kindString {
			return k.errorf(kw, "must be a string")
		}
		n.format, n.isFormat = v.text, formatChecker(v.text)
	case "pattern":
		if v.kind != kindString {
			return k.errorf(kw, "must be a string")
		}
		n.pattern = compilePattern(v.text)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		err = k.numeric(kw, v)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
		err = k.count(kw, v)
	case "required":
		n.required, err = k.names(kw, v)
	case "uniqueItems":
		if v.kind != kindBool {
			return k.errorf(kw, "must be true or false")
		}
		n.uniqueItems = v.boolean
	default:
		return k.applicator(kw, v)
	}
	return err
}

// applicator compiles a keyword that holds subschemas.
func (k *keywords) applicator(kw string, v *value) (err error) {
	n := k.n
	one := func() (*node, error) { return k.schema(v, "/"+escapeToken(kw)) }
	switch kw {
	case "properties":
		n.properties, err = k.schemaMap(kw, v)
		n.propertyIndex = make(map[string]*node, len(n.properties))
		for _, p := range n.properties {
			n.propertyIndex[p.name] = p.schema
		}
	case "patternProperties":
		var m []named
		m, err = k.schemaMap(kw, v)
		for _, e := range m {
			n.patternProperties = append(n.patternProperties, patterned{*compilePattern(e.name), e.schema})
		}
	case "dependentSchemas":
		var m []named
		m, err = k.schemaMap(kw, v)
		n.dependentSchemas = append(n.dependentSchemas, m...)
	case "dependentRequired", "dependencies":
		err = k.dependencies(kw, v)
	case "additionalProperties":
		n.additionalProperties, err = one()
	case "propertyNames":
		n.propertyNames, err = one()
	case "unevaluatedProperties":
		n.unevaluatedProperties, err = one()
		k.c.evaluated = true
	case "unevaluatedItems":
		n.unevaluatedItems, err = one()
		k.c.evaluated = true
	case "contains":
		n.contains, err = one()
	case "not":
		n.not, err = one()
	case "if":
		k.ifThen, err = one()
	case "then":
		k.then, err = one()
	case "else":
		k.els, err = one()
	case "allOf":
		n.allOf, err = k.schemaList(kw, v)
	case "anyOf":
		n.anyOf, err = k.schemaList(kw, v)
	case "oneOf":
		n.oneOf, err = k.schemaList(kw, v)
	case "prefixItems":
		k.prefixSet = true
		n.prefixItems, err = k.schemaList(kw, v)
	case "items":
		if v.kind == kindArray {
			k.tupleSet = true
			if len(v.items) > 0 {
				k.tuple, err = k.schemaList(kw, v)
			}
		} else {
			k.items, err = one()
		}
	case "additionalItems":
		k.additionalItems, err = one()
	}
	return err
}

// finish settles the keywords that depend on others.
func (k *keywords) finish() error {
	n := k.n
	if k.exclusiveMinimum && n.minimum != nil {
		n.exclusiveMinimum, n.minimum = n.minimum, nil
	}
	if k.exclusiveMaximum && n.maximum != nil {
		n.exclusiveMaximum, n.maximum = n.maximum, nil
	}
	switch {
	case k.tupleSet && k.prefixSet:
		return k.errorf("items", "cannot be an array beside prefixItems")
	case k.tupleSet:
		n.prefixItems, n.items, n.itemsKeyword = k.tuple, k.additionalItems, "additionalItems"
	default:
		n.items, n.itemsKeyword = k.items, "items"
	}
	if k.ifThen != nil {
		n.ifThen, n.then, n.els = k.ifThen, k.then, k.els
	}
	if n.contains == nil {
		n.minContains, n.maxContains = nil, nil
	}
	return nil
}

// typeNames reads type: one name or an array of names.
func (k *keywords) typeNames(v *value) ([]string, error) {
	var names []string
	switch v.kind {
	case kindString:
		names = []string{v.text}
	case kindArray:
		for _, it := range v.items {
			if it.kind != kindString {
				return nil, k.errorf("type", "must be a type name or an array of them")
			}
			names = append(names, it.text)
		}
	default:
		return nil, k.errorf("type", "must be a type name or an array of them")
	}
	for _, t := range names {
		switch t {
		case "null", "boolean", "object", "array", "number", "string", "integer":
		default:
			return nil, k.errorf("type", "names %q, which is not a JSON Schema type", t)
		}
	}
	return names, nil
}

// enumValues reads enum.
func (k *keywords) enumValues(v *value) (*enumSet, error) {
	if v.kind != kindArray {
		return nil, k.errorf("enum", "must be an array")
	}
	e := &enumSet{keys: make(map[string]struct{}, len(v.items)), want: make([]any, len(v.items))}
	for i, it := range v.items {
		e.keys[it.key()] = struct{}{}
		e.want[i] = it.toAny()
	}
	return e, nil
}

// numeric reads a numeric bound; draft-04's boolean exclusiveMinimum and
// exclusiveMaximum mark minimum and maximum exclusive.
func (k *keywords) numeric(kw string, v *value) error {
	n := k.n
	if v.kind == kindBool && (kw == "exclusiveMinimum" || kw == "exclusiveMaximum") {
		if kw == "exclusiveMinimum" {
			k.exclusiveMinimum = v.boolean
		} else {
			k.exclusiveMaximum = v.boolean
		}
		return nil
	}
	if v.kind != kindNumber {
		return k.errorf(kw, "must be a number")
	}
	r, ok := v.num.rat()
	if !ok {
		return k.errorf(kw, "%s is out of range", v.text)
	}
	b := &bound{n: v.num, rat: r}
	switch kw {
	case "minimum":
		n.minimum = b
	case "maximum":
		n.maximum = b
	case "exclusiveMinimum":
		n.exclusiveMinimum = b
	case "exclusiveMaximum":
		n.exclusiveMaximum = b
	default:
		if v.num.sign() <= 0 {
			return k.errorf(kw, "must be above 0")
		}
		n.multipleOf = b
	}
	return nil
}

// count reads a keyword whose value is a non-negative integer.
func (k *keywords) count(kw string, v *value) error {
	if v.kind != kindNumber {
		return k.errorf(kw, "must be a non-negative integer")
	}
	c, ok := v.num.count()
	if !ok {
		return k.errorf(kw, "must be a non-negative integer")
	}
	n := k.n
	var target **int
	switch kw {
	case "minLength":
		target = &n.minLength
	case "maxLength":
		target = &n.maxLength
	case "minItems":
		target = &n.minItems
	case "maxItems":
		target = &n.maxItems
	case "minProperties":
		target = &n.minProperties
	case "maxProperties":
		target = &n.maxProperties
	case "minContains":
		target = &n.minContains
	default:
		target = &n.maxContains
	}
	*target = &c
	return nil
}

// names reads an array of strings (required, dependentRequired entries).
func (k *keywords) names(kw string, v *value) ([]string, error) {
	if v.kind != kindArray {
		return nil, k.errorf(kw, "must be an array of strings")
	}
	out := make([]string, len(v.items))
	for i, it := range v.items {
		if it.kind != kindString {
			return nil, k.errorf(kw, "must be an array of strings")
		}
		out[i] = it.text
	}
	return out, nil
}

// dependencies reads dependentRequired, and dependencies whose entries are
// arrays of names (like dependentRequired) or schemas (like
// dependentSchemas).
func (k *keywords) dependencies(kw string, v *value) error {
	if v.kind != kindObject {
		return k.errorf(kw, "must be an object")
	}
	for _, m := range v.members {
		if m.val.kind == kindArray || kw == "dependentRequired" {
			names, err := k.names(kw, m.val)
			if err != nil {
				return err
			}
			k.n.dependentRequired = append(k.n.dependentRequired, dependency{property: m.name, required: names, keyword: kw})
			continue
		}
		s, err := k.schema(m.val, "/"+kw+"/"+escapeToken(m.name))
		if err != nil {
			return err
		}
		k.n.dependentSchemas = append(k.n.dependentSchemas, named{m.name, s})
	}
	return nil
}

// compilePattern compiles a regular expression with Go's regexp; one it
// cannot compile is kept unenforced.
func compilePattern(src string) *pattern {
	re, err := regexp.Compile(src)
	if err != nil {
		return &pattern{src: src}
	}
	return &pattern{src: src, re: re}
}
