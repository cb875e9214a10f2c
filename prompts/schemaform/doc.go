// Package schemaform turns a JSON Schema — a tool's inputSchema, or the
// flat requestedSchema of an MCP elicitation — into a keyboard form, and
// builds the JSON object the user filled in.
//
// Each property becomes a field: strings (with date, date-time, email and
// uri hints), numbers and integers (typed text, parsed on the way out so an
// integer stays an integer), booleans (a toggle), single choices (enum,
// oneOf/anyOf of const with titles, legacy enumNames), multi-selects
// (arrays of enum items), comma-separated lists of primitives, and nested
// objects shown as indented groups. Local $ref and single-element allOf
// wrappers are followed; nullable unions ({"type":["string","null"]} or an
// anyOf with a null branch) become the non-null field.
//
// Client-side validation runs the whole schema through the JSON Schema
// library (internal/app/schemacheck) and shows each error at the field it
// concerns; the form refuses to submit until they are fixed. A schema the
// form cannot express ($ref cycles, oneOf of objects, maps, arrays of
// objects, tuples) opens the package's JSON editor instead, which validates
// against the same schema and names each error by its JSON pointer.
//
// Form and JSONEditor are plain components: the root model forwards
// messages to Update, which returns an Action, and draws Render(w, h).
package schemaform
