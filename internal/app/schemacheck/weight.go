package schemacheck

import "github.com/santhosh-tekuri/jsonschema/v6"

// weight says how many subschemas a schema applies to a value: inPlace to
// the value itself, and to an object's or array's members props (each
// property schema, at most one member each), tuple (each position, at most
// one item each), perProp to every property and perItem to every item.
type weight struct {
	inPlace, props, tuple, perProp, perItem int
}

// of is the steps applying the schema to v costs: one, and one for each
// subschema it is about to apply.
func (w weight) of(v any) int {
	n := 1 + w.inPlace
	switch v := v.(type) {
	case map[string]any:
		n += min(len(v), w.props) + len(v)*w.perProp
	case []any:
		n += min(len(v), w.tuple) + len(v)*w.perItem
	}
	return n
}

// weightOf reads the subschemas s applies from its compiled form.
func weightOf(s *jsonschema.Schema) weight {
	w := weight{
		inPlace: some(s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.ContentSchema) +
			len(s.AllOf) + len(s.AnyOf) + len(s.OneOf) + len(s.DependentSchemas),
		props:   len(s.Properties),
		tuple:   len(s.PrefixItems),
		perProp: len(s.PatternProperties) + some(s.PropertyNames, s.UnevaluatedProperties, asSchema(s.AdditionalProperties)),
		perItem: some(s.Items2020, s.Contains, s.UnevaluatedItems, asSchema(s.Items), asSchema(s.AdditionalItems)),
	}
	if s.DynamicRef != nil {
		w.inPlace++
	}
	if items, ok := s.Items.([]*jsonschema.Schema); ok {
		w.tuple += len(items)
	}
	for _, d := range s.Dependencies {
		if _, ok := d.(*jsonschema.Schema); ok {
			w.inPlace++
		}
	}
	return w
}

// eachSubschema calls f with every subschema s names, saying whether it
// applies to the value s is applied to (in place) or to a member of it.
// Under draft-07 and older, a $ref is all the library applies of its
// schema.
func eachSubschema(s *jsonschema.Schema, f func(sub *jsonschema.Schema, inPlace bool)) {
	if s.DraftVersion < 2019 && s.Ref != nil {
		f(s.Ref, true)
		return
	}
	inPlace := append([]*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.ContentSchema}, s.AllOf...)
	inPlace = append(append(inPlace, s.AnyOf...), s.OneOf...)
	if s.DynamicRef != nil {
		inPlace = append(inPlace, s.DynamicRef.Ref)
	}
	for _, sub := range s.DependentSchemas {
		inPlace = append(inPlace, sub)
	}
	for _, d := range s.Dependencies {
		inPlace = append(inPlace, asSchema(d))
	}
	members := append([]*jsonschema.Schema{
		s.PropertyNames, s.UnevaluatedProperties, s.Items2020, s.Contains, s.UnevaluatedItems,
		asSchema(s.AdditionalProperties), asSchema(s.Items), asSchema(s.AdditionalItems),
	}, s.PrefixItems...)
	if items, ok := s.Items.([]*jsonschema.Schema); ok {
		members = append(members, items...)
	}
	for _, sub := range s.Properties {
		members = append(members, sub)
	}
	for _, sub := range s.PatternProperties {
		members = append(members, sub)
	}
	for _, sub := range inPlace {
		if sub != nil {
			f(sub, true)
		}
	}
	for _, sub := range members {
		if sub != nil {
			f(sub, false)
		}
	}
}

// some counts the schemas that are there.
func some(schemas ...*jsonschema.Schema) int {
	n := 0
	for _, s := range schemas {
		if s != nil {
			n++
		}
	}
	return n
}

// asSchema is v when it is a schema, else nil.
func asSchema(v any) *jsonschema.Schema {
	s, _ := v.(*jsonschema.Schema)
	return s
}
