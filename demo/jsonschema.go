package demo

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaURL names a schema inside the validator; nothing is loaded from it.
const schemaURL = "mcpscope-demo:///schema.json"

// validateJSON checks value against a JSON Schema, formats asserted and
// nothing loaded from outside the schema. A schema that does not compile
// fails every value.
func validateJSON(schema, value json.RawMessage) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema validator failed: %v", r)
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return fmt.Errorf("the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(jsonschema.SchemeURLLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return fmt.Errorf("the schema cannot be loaded: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return fmt.Errorf("the schema does not compile: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return fmt.Errorf("the value is not JSON: %w", err)
	}
	return sch.Validate(inst)
}
