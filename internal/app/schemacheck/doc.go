// Package schemacheck checks JSON values against the JSON Schemas MCP uses
// (tools' inputSchema and outputSchema, elicitation forms, custom prompts)
// with github.com/santhosh-tekuri/jsonschema/v6, and phrases what fails for
// people.
//
// Compile reads one schema document, compiling it the first time that text
// is asked for and keeping it for the next. $schema may name draft-04, -06,
// -07, 2019-09 or 2020-12 (2020-12 when absent); nothing is ever loaded, so
// a reference to another document, or an unknown $schema, does not compile.
// A schema that breaks its draft's meta-schema does not compile either, and
// the error says where and what was wanted ("at #/minLength: must be an
// integer").
//
// Formats are asserted: date, date-time, time, duration, email, hostname,
// ipv4, ipv6, uri, uri-reference, uuid and regex, by mcpscope's own checks
// of each; other formats pass. A pattern Go's regexp cannot compile
// (ECMAScript lookaround, backreferences) is not enforced.
//
// Validate returns each Failure with its instance location and what the
// keyword wanted (the library's kind types, and TooManyItems,
// UnevaluatedProperties and UnevaluatedItems where the library reports a
// false schema member by member), ordered by location; Failure.Message
// phrases it. A failed anyOf or oneOf carries each alternative's failures.
// Type, const, enum and format are checked first: when one fails it is the
// only failure of that schema at that value.
//
// Hostile schemas and values end, and what a validation keeps is bounded:
// a document holds at most maxSubschemas schemas (objects and booleans); a
// chain of subschemas applied in place ($ref a → b → a, allOf, not, …)
// that comes back where it started does not compile; each schema applied
// counts, before it applies anything, a step for itself and one for each
// subschema it is about to apply, and a validation stops past maxSteps.
// Validate does not judge a value, returning an error that wraps
// ErrNotChecked, when its values times the schema's subschemas pass a
// budget, when it holds a number too large to compare (more than
// maxDigits digits, or an exponent past it), when the steps run out, when
// the schema refers to itself without end, and when the library panics.
// Callers treat such a value as they treat a schema that does not compile:
// as neither valid nor invalid. Compiled schemas are cached, the cache
// bounded in entries and in bytes.
//
// The library compiles the meta-schemas of its five drafts when the
// program starts, which no caller can defer.
package schemacheck
