package schemacheck

import "github.com/santhosh-tekuri/jsonschema/v6/kind"

// The kinds of Failure callers tell apart, named here so that they need
// not import the library.
type (
	// Required: properties the object lacks (Missing).
	Required = kind.Required
	// AnyOf: the value matches none of the alternatives.
	AnyOf = kind.AnyOf
	// OneOf: the value matches none of the alternatives, or more than one.
	OneOf = kind.OneOf
)
