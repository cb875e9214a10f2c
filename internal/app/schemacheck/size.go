package schemacheck

import (
	"encoding/json"
	"strconv"
	"strings"
)

// maxDigits bounds a number's digits and the size of its exponent: the
// library builds an exact fraction of every number it compares, each time
// it compares it, and 1e999999 is a million digits.
const maxDigits = 10000

// maxWork bounds the schemas a document reaches times the values of the
// value checked: what a validation that applies each schema once to each
// value costs. A form, or a tool's result of a few megabytes against a
// schema of a few hundred subschemas, stays well below.
const maxWork = 1 << 28

// schemaMaps are the keywords whose value is an object of schemas, not a
// schema.
var schemaMaps = map[string]bool{
	"$defs": true, "definitions": true, "properties": true, "patternProperties": true,
	"dependentSchemas": true, "dependencies": true,
}

// valueSize is what a walk of a decoded JSON document found.
type valueSize struct {
	nodes   int    // every value, members and items included
	schemas int    // the objects and booleans but those of schemaMaps: a schema document's schemas, or more
	huge    string // the first number too large to compare, shortened
}

// walk counts v's values and looks for a huge number. v is the value of a
// keyword of schemaMaps when inMap.
func (z *valueSize) walk(v any, inMap bool) {
	z.nodes++
	switch v := v.(type) {
	case map[string]any:
		if !inMap {
			z.schemas++
		}
		for k, m := range v {
			z.walk(m, !inMap && schemaMaps[k])
		}
	case []any:
		for _, m := range v {
			z.walk(m, false)
		}
	case bool:
		z.schemas++
	case json.Number:
		if z.huge == "" && tooLarge(string(v)) {
			z.huge = shorten(string(v))
		}
	}
}

// tooLarge reports whether the number n has more than maxDigits digits or
// an exponent past ±maxDigits.
func tooLarge(n string) bool {
	mantissa, exp, _ := strings.Cut(strings.ToLower(n), "e")
	if len(strings.TrimPrefix(strings.Replace(mantissa, ".", "", 1), "-")) > maxDigits {
		return true
	}
	if exp == "" {
		return false
	}
	e, err := strconv.Atoi(exp)
	return err != nil || e > maxDigits || e < -maxDigits
}

// shorten is a number's first and last digits around an ellipsis when it
// is long.
func shorten(n string) string {
	if len(n) <= 24 {
		return n
	}
	return n[:10] + "…" + n[len(n)-10:]
}
