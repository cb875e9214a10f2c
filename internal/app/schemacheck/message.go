package schemacheck

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// Message says what the failure wants, for a person filling in the value
// ("must be at least 2 characters"); it does not say where.
func (f *Failure) Message() string {
	switch k := f.Kind.(type) {
	case *kind.Type:
		return "must be " + article(strings.Join(nullLast(k.Want), " or "))
	case *kind.Enum:
		return "must be one of " + list(k.Want)
	case *kind.Const:
		return "must be " + list([]any{k.Want})
	case *kind.Pattern:
		return "must match the pattern " + k.Want
	case *kind.MinLength:
		return "must be at least " + plural.Count(k.Want, "character", "characters")
	case *kind.MaxLength:
		return "must be at most " + plural.Count(k.Want, "character", "characters")
	case *kind.Minimum:
		return "must be ≥ " + Decimal(k.Want)
	case *kind.Maximum:
		return "must be ≤ " + Decimal(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be > " + Decimal(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be < " + Decimal(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + Decimal(k.Want)
	case *kind.Format:
		return "not a valid " + k.Want
	}
	return f.structureMessage()
}

// structureMessage phrases the failures about objects, arrays and
// combinations of schemas.
func (f *Failure) structureMessage() string {
	switch k := f.Kind.(type) {
	case *kind.Required:
		return "missing " + plural.Word(len(k.Missing), "required property ", "required properties ") + quoted(k.Missing)
	case *kind.DependentRequired:
		return "needs " + quoted(k.Missing) + " when " + strconv.Quote(k.Prop) + " is given"
	case *kind.Dependency:
		return "needs " + quoted(k.Missing) + " when " + strconv.Quote(k.Prop) + " is given"
	case *kind.MinProperties:
		return fmt.Sprintf("needs at least %d %s", k.Want, plural.Word(k.Want, "property", "properties"))
	case *kind.MaxProperties:
		return fmt.Sprintf("allows at most %d %s", k.Want, plural.Word(k.Want, "property", "properties"))
	case *kind.AdditionalProperties:
		return "unexpected property " + names(k.Properties)
	case *kind.PropertyNames:
		return "the property name " + strconv.Quote(k.Property) + " is not allowed"
	case *kind.MinItems:
		return "needs at least " + plural.Count(k.Want, "item", "items")
	case *kind.MaxItems:
		return "allows at most " + plural.Count(k.Want, "item", "items")
	case *TooManyItems:
		return "allows at most " + plural.Count(k.Allowed, "item", "items")
	case *UnevaluatedProperties:
		return "unexpected property " + names(k.Properties)
	case *UnevaluatedItems:
		return plural.Word(len(k.Indexes), "unexpected item ", "unexpected items ") + ordinals(k.Indexes)
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are the same", k.Duplicates[0]+1, k.Duplicates[1]+1)
	case *kind.Contains:
		return "needs an item of the required kind"
	case *kind.MinContains:
		return "needs at least " + plural.Count(k.Want, "item", "items") + " of the required kind"
	case *kind.MaxContains:
		return "allows at most " + plural.Count(k.Want, "item", "items") + " of the required kind"
	case *kind.AnyOf:
		return "matches none of the allowed forms"
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return "matches none of the allowed forms"
		}
		return "matches more than one of the allowed forms"
	case *kind.Not:
		return "matches a form that is not allowed"
	case *kind.FalseSchema:
		return "not allowed"
	case *kind.RefCycle:
		return "the schema refers to itself without end"
	}
	return "does not match the schema"
}

// Decimal shows a number as a decimal: exactly when it has at most six
// digits after the point, else rounded to six.
func Decimal(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(6), "0"), ".")
}

// article puts "a" or "an" before a type name.
func article(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// list shows at most eight values: strings quoted, others as JSON.
func list(vals []any) string {
	parts := make([]string, 0, min(len(vals), 9))
	for i, v := range vals {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(vals)))
			break
		}
		if s, ok := v.(string); ok {
			parts = append(parts, strconv.Quote(s))
		} else if b, err := json.Marshal(v); err == nil {
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, ", ")
}

// quoted shows names quoted, comma-separated.
func quoted(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = strconv.Quote(n)
	}
	return strings.Join(parts, ", ")
}

// ordinals shows indexes from 0 as positions from 1.
func ordinals(indexes []int) string {
	parts := make([]string, len(indexes))
	for i, n := range indexes {
		parts[i] = strconv.Itoa(n + 1)
	}
	return strings.Join(parts, ", ")
}

// nullLast is the type names with null, if there, moved to the end: "a
// string or null".
func nullLast(types []string) []string {
	if !slices.Contains(types, "null") {
		return types
	}
	out := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
	return append(out, "null")
}

// names lists property names in order, whatever order the library found
// them in (it walks a map).
func names(props []string) string {
	return strings.Join(slices.Sorted(slices.Values(props)), ", ")
}
