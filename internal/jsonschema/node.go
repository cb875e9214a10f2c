package jsonschema

import (
	"math/big"
	"regexp"
)

// node is one compiled schema. Absent keywords are nil or empty.
type node struct {
	loc     string // JSON pointer of the schema in its document, "#/…"
	boolean *bool  // a true or false schema; nothing else is set
	dialect dialect

	refs []*node // $ref, $dynamicRef, $recursiveRef (resolved statically)

	types    []string // type, as written
	constant *literal
	enum     *enumSet
	format   string
	isFormat func(string) bool

	// strings
	minLength, maxLength *int
	pattern              *pattern

	// numbers
	minimum, maximum                   *bound
	exclusiveMinimum, exclusiveMaximum *bound
	multipleOf                         *bound

	// objects
	properties           []named
	propertyIndex        map[string]*node
	patternProperties    []patterned
	additionalProperties *node
	required             []string
	dependentRequired    []dependency
	dependentSchemas     []named
	propertyNames        *node
	minProperties        *int
	maxProperties        *int

	// arrays
	prefixItems  []*node
	items        *node // items after prefixItems (or the tuple of items)
	itemsKeyword string
	minItems     *int
	maxItems     *int
	uniqueItems  bool
	contains     *node
	minContains  *int
	maxContains  *int

	// applicators
	allOf, anyOf, oneOf []*node
	not                 *node
	ifThen, then, els   *node

	unevaluatedProperties *node
	unevaluatedItems      *node
}

// literal is a const's value: its canonical key for comparing and its
// shape for reporting.
type literal struct {
	key  string
	want any
}

// enumSet is an enum's values.
type enumSet struct {
	keys map[string]struct{}
	want []any
}

// bound is a numeric keyword's value.
type bound struct {
	n   number
	rat *big.Rat
}

// pattern is a compiled regular expression; re is nil when Go's regexp
// cannot compile it (ECMAScript lookaround, backreferences), and then it
// is not enforced.
type pattern struct {
	src string
	re  *regexp.Regexp
}

// named is a property name and its subschema.
type named struct {
	name   string
	schema *node
}

// patterned is a patternProperties entry.
type patterned struct {
	pattern
	schema *node
}

// dependency is one entry of dependentRequired (or the array form of
// dependencies).
type dependency struct {
	property string
	required []string
	keyword  string
}
