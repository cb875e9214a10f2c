// Package jsonschema validates JSON values against the JSON Schemas MCP
// uses: tools' inputSchema and outputSchema, elicitation forms, custom
// prompts. It does no work when the program starts: patterns and tables
// are built by Compile, for the schema at hand.
//
// Compile reads one schema document; Validate checks a value and returns
// each Failure with its instance location, the keyword and what the
// keyword wanted, typed (Type, Enum, Minimum with an exact *big.Rat, …),
// so that callers phrase it; Failure.Message phrases it for people.
//
// Dialects: $schema may name draft-04, -06, -07, 2019-09 or 2020-12
// (2020-12 when absent); any other $schema does not compile. Under draft-07
// and older, $ref replaces the keywords beside it; from 2019-09 they apply
// together. The keywords 2019-09 introduced (dependentRequired,
// dependentSchemas, minContains, maxContains, unevaluatedProperties,
// unevaluatedItems, $anchor) are ignored in older drafts, and those of
// 2020-12 (prefixItems, $dynamicRef, $dynamicAnchor) before it; older
// keywords (dependencies, items as an array with additionalItems, the
// boolean exclusiveMinimum and exclusiveMaximum of draft-04) are read in
// every draft. Draft-04 names a schema with id, the others with $id.
//
// Keywords: type, enum, const, the numeric bounds and multipleOf (numbers
// compared exactly: 1.0 is an integer, 0.3 is a multiple of 0.1),
// minLength and maxLength (in code points), pattern, format, the object
// keywords (properties, patternProperties, additionalProperties, required,
// minProperties, maxProperties, propertyNames, dependentRequired,
// dependentSchemas, dependencies), the array keywords (items, prefixItems,
// additionalItems, minItems, maxItems, uniqueItems, contains, minContains,
// maxContains), allOf, anyOf, oneOf, not, if/then/else, boolean schemas,
// unevaluatedProperties and unevaluatedItems. Annotations (title,
// description, default, examples, …) and unknown keywords are ignored.
//
// References: $ref (and 2020-12's $dynamicRef and 2019-09's
// $recursiveRef, resolved like $ref, by where they are written) to a JSON pointer in the document (#, #/$defs/x,
// #/definitions/x, with ~0, ~1 and percent escapes), to a $id or to an
// $anchor inside it. A reference to another document does not compile:
// nothing is ever loaded.
//
// Patterns use Go's regexp: a pattern it cannot compile (ECMAScript
// lookaround, backreferences) is not enforced, and a patternProperties
// entry with such a pattern neither constrains nor refuses a property.
// Formats are asserted: date, date-time, time, duration, email, hostname,
// ipv4, ipv6, uri, uri-reference, uuid and regex (refused only for errors
// of structure, as Go lacks some ECMAScript syntax); other formats pass.
//
// Hostile schemas and values end: documents nest at most MaxDepth levels;
// a chain of subschemas that applies to the same value forever ($ref a →
// b → a) does not compile; a validation stops with an error after a bound
// of steps and of nesting.
//
// Type, const, enum and format are checked first; when one fails it is
// the only failure that schema reports for that value, the others having
// nothing useful to add.
package jsonschema
