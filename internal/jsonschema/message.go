package jsonschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/internal/plural"
)

// Message says what the failure wants, for a person filling in the value
// ("must be at least 2 characters"); it does not say where.
func (f *Failure) Message() string {
	switch k := f.Kind.(type) {
	case Type:
		return "must be " + article(strings.Join(k.Want, " or "))
	case Enum:
		return "must be one of " + list(k.Want)
	case Const:
		return "must be " + list([]any{k.Want})
	case Pattern:
		return "must match the pattern " + k.Want
	case MinLength:
		return "must be at least " + plural.Count(k.Want, "character", "characters")
	case MaxLength:
		return "must be at most " + plural.Count(k.Want, "character", "characters")
	case Minimum:
		return "must be ≥ " + Decimal(k.Want)
	case Maximum:
		return "must be ≤ " + Decimal(k.Want)
	case ExclusiveMinimum:
		return "must be > " + Decimal(k.Want)
	case ExclusiveMaximum:
		return "must be < " + Decimal(k.Want)
	case MultipleOf:
		return "must be a multiple of " + Decimal(k.Want)
	case Format:
		return "not a valid " + k.Want
	}
	return f.structureMessage()
}

// structureMessage phrases the failures about objects, arrays and
// combinations of schemas.
func (f *Failure) structureMessage() string {
	switch k := f.Kind.(type) {
	case Required:
		return "missing " + plural.Word(len(k.Missing), "required property ", "required properties ") + quoted(k.Missing)
	case DependentRequired:
		return "needs " + quoted(k.Missing) + " when " + strconv.Quote(k.Property) + " is given"
	case MinProperties:
		return fmt.Sprintf("needs at least %d %s", k.Want, plural.Word(k.Want, "property", "properties"))
	case MaxProperties:
		return fmt.Sprintf("allows at most %d %s", k.Want, plural.Word(k.Want, "property", "properties"))
	case AdditionalProperties:
		return "unexpected property " + strings.Join(k.Properties, ", ")
	case UnevaluatedProperties:
		return "unexpected property " + strings.Join(k.Properties, ", ")
	case PropertyNames:
		return "the property name " + strconv.Quote(k.Property) + " is not allowed"
	case MinItems:
		return "needs at least " + plural.Count(k.Want, "item", "items")
	case MaxItems:
		return "allows at most " + plural.Count(k.Want, "item", "items")
	case AdditionalItems:
		return "allows at most " + plural.Count(k.Allowed, "item", "items")
	case UnevaluatedItems:
		return plural.Word(len(k.Indexes), "unexpected item ", "unexpected items ") + ordinals(k.Indexes)
	case UniqueItems:
		return fmt.Sprintf("items %d and %d are the same", k.Duplicates[0]+1, k.Duplicates[1]+1)
	case Contains:
		return "needs an item of the required kind"
	case MinContains:
		return "needs at least " + plural.Count(k.Want, "item", "items") + " of the required kind"
	case MaxContains:
		return "allows at most " + plural.Count(k.Want, "item", "items") + " of the required kind"
	case AnyOf:
		return "matches none of the allowed forms"
	case OneOf:
		if len(k.Matched) == 0 {
			return "matches none of the allowed forms"
		}
		return "matches more than one of the allowed forms"
	case Not:
		return "matches a form that is not allowed"
	case FalseSchema:
		return "not allowed"
	}
	return "does not match the schema"
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
		b.WriteString(escapeToken(t))
	}
	return b.String()
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
