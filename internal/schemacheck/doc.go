// Package schemacheck checks JSON values against the JSON Schemas MCP uses
// (tools' inputSchema and outputSchema, elicitation forms, custom prompts)
// with github.com/santhosh-tekuri/jsonschema/v6, and phrases what fails for
// people.
//
// Compile reads one schema document, compiling it the first time that text
// is asked for and keeping it for the next. $schema may name draft-04, -06,
// -07, 2019-09 or 2020-12 (2020-12 when absent); nothing is ever loaded, so
// a reference to another document, or an unknown $schema, does not compile.
// Formats are asserted. A pattern Go's regexp cannot compile (ECMAScript
// lookaround, backreferences) is not enforced.
//
// Validate returns each Failure with its instance location and what the
// keyword wanted (the library's kind types); Failure.Message phrases it.
// A failed anyOf or oneOf carries each alternative's failures.
package schemacheck
