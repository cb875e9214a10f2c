package jsonschema

import "math/big"

// Failure is one keyword a value does not satisfy.
type Failure struct {
	// Location is the instance location: the JSON pointer tokens, unescaped,
	// of the value that fails (empty for the whole value).
	Location []string
	// Keyword is the schema keyword that failed ("minLength", "required",
	// "additionalProperties", …; "false" for a false schema).
	Keyword string
	// Kind says what was wanted; its type is one of the kinds below.
	Kind Kind
}

// Kind is what a failed keyword wanted: one of Type, Enum, Const, Pattern,
// MinLength, MaxLength, Minimum, Maximum, ExclusiveMinimum,
// ExclusiveMaximum, MultipleOf, Format, Required, DependentRequired,
// MinProperties, MaxProperties, AdditionalProperties, PropertyNames,
// UnevaluatedProperties, MinItems, MaxItems, UniqueItems, AdditionalItems,
// UnevaluatedItems, Contains, MinContains, MaxContains, AnyOf, OneOf, Not,
// FalseSchema.
type Kind interface{ kind() }

// Type: the value's JSON type is none of Want ("integer" for a number
// without fraction).
type Type struct {
	Want []string
	Got  string
}

// Enum: the value equals none of Want (nil, bool, json.Number, string,
// []any, map[string]any; shared, not to be changed).
type Enum struct{ Want []any }

// Const: the value does not equal Want.
type Const struct{ Want any }

// Pattern: the string does not match the regular expression Want.
type Pattern struct{ Want string }

// MinLength: the string has Got code points, fewer than Want.
type MinLength struct{ Want, Got int }

// MaxLength: the string has Got code points, more than Want.
type MaxLength struct{ Want, Got int }

// Minimum: the number is below Want.
type Minimum struct{ Want *big.Rat }

// Maximum: the number is above Want.
type Maximum struct{ Want *big.Rat }

// ExclusiveMinimum: the number is not above Want.
type ExclusiveMinimum struct{ Want *big.Rat }

// ExclusiveMaximum: the number is not below Want.
type ExclusiveMaximum struct{ Want *big.Rat }

// MultipleOf: the number is not an integer multiple of Want.
type MultipleOf struct{ Want *big.Rat }

// Format: the string is not a valid Want ("date", "email", …).
type Format struct{ Want string }

// Required: the object lacks the properties Missing.
type Required struct{ Missing []string }

// DependentRequired: the object has Property but lacks Missing.
type DependentRequired struct {
	Property string
	Missing  []string
}

// MinProperties: the object has Got properties, fewer than Want.
type MinProperties struct{ Want, Got int }

// MaxProperties: the object has Got properties, more than Want.
type MaxProperties struct{ Want, Got int }

// AdditionalProperties: additionalProperties is false and the object has
// Properties, which nothing else in the schema names.
type AdditionalProperties struct{ Properties []string }

// PropertyNames: the name Property does not satisfy propertyNames.
type PropertyNames struct{ Property string }

// UnevaluatedProperties: unevaluatedProperties is false and no keyword
// evaluated Properties.
type UnevaluatedProperties struct{ Properties []string }

// MinItems: the array has Got items, fewer than Want.
type MinItems struct{ Want, Got int }

// MaxItems: the array has Got items, more than Want.
type MaxItems struct{ Want, Got int }

// UniqueItems: the items at the indexes Duplicates (from 0) are equal.
type UniqueItems struct{ Duplicates [2]int }

// AdditionalItems: the array has Got items where no more than Allowed are
// allowed (additionalItems or items false after a tuple).
type AdditionalItems struct{ Allowed, Got int }

// UnevaluatedItems: unevaluatedItems is false and no keyword evaluated
// the items at Indexes (from 0).
type UnevaluatedItems struct{ Indexes []int }

// Contains: no item satisfies contains.
type Contains struct{}

// MinContains: Got items satisfy contains, fewer than Want.
type MinContains struct{ Want, Got int }

// MaxContains: Got items satisfy contains, more than Want.
type MaxContains struct{ Want, Got int }

// AnyOf: no alternative matched; Causes holds each alternative's failures,
// in order.
type AnyOf struct{ Causes [][]*Failure }

// OneOf: no alternative matched (Matched empty; Causes holds each
// alternative's failures), or more than one did (Matched holds the
// indexes of the first two, from 0; no Causes).
type OneOf struct {
	Matched []int
	Causes  [][]*Failure
}

// Not: the value matches the schema of not.
type Not struct{}

// FalseSchema: the schema is false; no value is allowed.
type FalseSchema struct{}

func (Type) kind()                  {}
func (Enum) kind()                  {}
func (Const) kind()                 {}
func (Pattern) kind()               {}
func (MinLength) kind()             {}
func (MaxLength) kind()             {}
func (Minimum) kind()               {}
func (Maximum) kind()               {}
func (ExclusiveMinimum) kind()      {}
func (ExclusiveMaximum) kind()      {}
func (MultipleOf) kind()            {}
func (Format) kind()                {}
func (Required) kind()              {}
func (DependentRequired) kind()     {}
func (MinProperties) kind()         {}
func (MaxProperties) kind()         {}
func (AdditionalProperties) kind()  {}
func (PropertyNames) kind()         {}
func (UnevaluatedProperties) kind() {}
func (MinItems) kind()              {}
func (MaxItems) kind()              {}
func (UniqueItems) kind()           {}
func (AdditionalItems) kind()       {}
func (UnevaluatedItems) kind()      {}
func (Contains) kind()              {}
func (MinContains) kind()           {}
func (MaxContains) kind()           {}
func (AnyOf) kind()                 {}
func (OneOf) kind()                 {}
func (Not) kind()                   {}
func (FalseSchema) kind()           {}
