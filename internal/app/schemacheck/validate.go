package schemacheck

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Failure is one keyword a value does not satisfy.
type Failure struct {
	// Location is the instance location: the JSON pointer tokens,
	// unescaped, of the value that fails (empty for the whole value).
	Location []string
	// Kind says what was wanted: one of the library's kind types
	// (*kind.Type, *kind.Required, *kind.AnyOf, …).
	Kind jsonschema.ErrorKind
	// Causes holds, for a failed anyOf or oneOf, each alternative's
	// failures, in order.
	Causes [][]*Failure

	member string // the keyword whose false schema refused this member, see regroup
	schema string // that false schema's location, see regroup
}

// ErrNotChecked is wrapped by the error of a validation that judged
// nothing: the value and the schema together cost too much to check, a
// number is too large to compare, or the schema refers to itself without
// end. As with a schema that does not compile, the value is neither valid
// nor invalid.
var ErrNotChecked = errors.New("the value cannot be checked against the schema")

// Validate checks a JSON value and returns every failure, in the order of
// their locations (the whole value first, array items by index). The
// error says the value is not JSON, or wraps ErrNotChecked.
func (s *Schema) Validate(data json.RawMessage) ([]*Failure, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("the value is not JSON: %w", err)
	}
	var size valueSize
	if size.walk(inst, false); size.huge != "" {
		return nil, notChecked("the number %s is too large to compare", size.huge)
	} else if size.nodes*s.size > maxWork {
		return nil, notChecked("%d values against %d subschemas are too many to check", size.nodes, s.size)
	}
	err = s.steps.run(s.s, inst)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	if refCycle(ve) {
		return nil, notChecked("the schema refers to itself without end")
	}
	fails := regroup(failures(ve, inst), inst)
	slices.SortStableFunc(fails, func(a, b *Failure) int { return compareLocations(a.Location, b.Location) })
	return fails, nil
}

// failures flattens the library's tree of errors into the keywords that
// failed, the groups it adds ($ref, allOf, a schema's keywords) dissolved.
// inst is the value checked, where a failed property name is looked for:
// the library checks the name as a value of its own, losing its object's
// place.
func failures(e *jsonschema.ValidationError, inst any) []*Failure {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		var out []*Failure
		for _, c := range e.Causes {
			out = append(out, failures(c, inst)...)
		}
		return out
	case *kind.PropertyNames:
		return []*Failure{{Location: objectWith(inst, k.Property, e.InstanceLocation), Kind: e.ErrorKind}}
	}
	f := &Failure{Location: e.InstanceLocation, Kind: e.ErrorKind}
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalItems:
		f.Kind = &TooManyItems{Allowed: arrayLen(inst, e.InstanceLocation) - k.Count, keyword: "additionalItems"}
	case *kind.FalseSchema:
		f.member, f.schema = falseKeyword(e.SchemaURL), e.SchemaURL
	case *kind.AnyOf, *kind.OneOf:
		for _, c := range e.Causes {
			f.Causes = append(f.Causes, failures(c, inst))
		}
	}
	return []*Failure{f}
}

// refCycle reports whether e or one of its causes is a reference cycle.
func refCycle(e *jsonschema.ValidationError) bool {
	if _, ok := e.ErrorKind.(*kind.RefCycle); ok {
		return true
	}
	return slices.ContainsFunc(e.Causes, refCycle)
}

// ValidationError is every failure of a value, as one error.
type ValidationError struct{ Failures []*Failure }

// Error lists the failures, "; " between them.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Failures))
	for i, f := range e.Failures {
		parts[i] = f.Error()
	}
	return strings.Join(parts, "; ")
}

// Error is the failure at its instance location: "/a/0: must be a string".
func (f *Failure) Error() string {
	if len(f.Location) == 0 {
		return f.Message()
	}
	return Pointer(f.Location) + ": " + f.Message()
}

// Pointer joins location tokens into a JSON pointer ("" for the whole
// value).
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// objectWith is the location of the object in v that has the property
// name and whose property names failed, of which the library gives
// location: its length is right, but its tokens may have been overwritten
// by a sibling's since. Of the objects at that depth that have the name,
// the first, depth first, that agrees with most of its tokens.
func objectWith(v any, name string, location []string) []string {
	if obj, ok := valueAt(v, location).(map[string]any); ok {
		if _, ok := obj[name]; ok {
			return slices.Clone(location)
		}
	}
	var best []string
	bestScore := -1
	var walk func(v any, at []string)
	walk = func(v any, at []string) {
		if len(at) == len(location) {
			if obj, ok := v.(map[string]any); ok {
				if _, ok := obj[name]; ok {
					if score := agreeing(at, location); score > bestScore {
						best, bestScore = slices.Clone(at), score
					}
				}
			}
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k], append(at, k))
			}
		case []any:
			for i, item := range v {
				walk(item, append(at, strconv.Itoa(i)))
			}
		}
	}
	walk(v, make([]string, 0, len(location)))
	return best
}

// agreeing counts the tokens a and b have the same at the same place.
func agreeing(a, b []string) int {
	n := 0
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			n++
		}
	}
	return n
}

// compareLocations orders instance locations token by token, indexes as
// numbers, a location before those inside it.
func compareLocations(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		x, errX := strconv.Atoi(a[i])
		y, errY := strconv.Atoi(b[i])
		if errX == nil && errY == nil {
			return cmp.Compare(x, y)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}
