package schemaform

import (
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	jskind "github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	textmessage "golang.org/x/text/message"
)

// printer phrases the library's messages in English; it is made on first
// use, not when the program starts.
var printer = sync.OnceValue(func() *textmessage.Printer { return textmessage.NewPrinter(language.English) })

// message phrases a validation failure for a person filling in a form;
// kinds without a phrase here use the library's wording.
func message(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *jskind.Type:
		return "must be " + article(strings.Join(k.Want, " or "))
	case *jskind.Enum:
		return "must be one of " + list(k.Want)
	case *jskind.Const:
		return "must be " + list([]any{k.Want})
	case *jskind.Pattern:
		return "must match the pattern " + k.Want
	case *jskind.MinLength:
		return fmt.Sprintf("must be at least %d characters", k.Want)
	case *jskind.MaxLength:
		return fmt.Sprintf("must be at most %d characters", k.Want)
	case *jskind.Minimum:
		return "must be ≥ " + rat(k.Want)
	case *jskind.Maximum:
		return "must be ≤ " + rat(k.Want)
	case *jskind.ExclusiveMinimum:
		return "must be > " + rat(k.Want)
	case *jskind.ExclusiveMaximum:
		return "must be < " + rat(k.Want)
	case *jskind.MultipleOf:
		return "must be a multiple of " + rat(k.Want)
	case *jskind.MinItems:
		return fmt.Sprintf("needs at least %d items", k.Want)
	case *jskind.MaxItems:
		return fmt.Sprintf("allows at most %d items", k.Want)
	case *jskind.UniqueItems:
		return fmt.Sprintf("items %d and %d are the same", k.Duplicates[0]+1, k.Duplicates[1]+1)
	case *jskind.Format:
		return "not a valid " + k.Want
	case *jskind.AdditionalProperties:
		return "unexpected property " + strings.Join(k.Properties, ", ")
	case *jskind.AnyOf:
		return "matches none of the allowed forms"
	case *jskind.OneOf:
		if len(k.Subschemas) == 0 {
			return "matches none of the allowed forms"
		}
		return "matches more than one of the allowed forms"
	case *jskind.FalseSchema:
		return "not allowed"
	}
	return k.LocalizedString(printer())
}

// article puts "a" or "an" before a type name.
func article(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// list shows at most eight values of an enum.
func list(vals []any) string {
	parts := make([]string, 0, min(len(vals), 9))
	for i, v := range vals {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("… (%d in all)", len(vals)))
			break
		}
		if s, ok := v.(string); ok {
			parts = append(parts, fmt.Sprintf("%q", s))
		} else {
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, ", ")
}

// rat shows a bound as a decimal when it is one.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return strings.TrimRight(strings.TrimRight(r.FloatString(6), "0"), ".")
}
