package demo

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
)

// validateJSON checks value against a JSON Schema, formats asserted and
// nothing loaded from outside the schema. A schema that does not compile
// fails every value.
func validateJSON(schema, value json.RawMessage) error {
	s, err := schemacheck.Compile(schema)
	if err != nil {
		return fmt.Errorf("the schema does not compile: %w", err)
	}
	fails, err := s.Validate(value)
	if err != nil {
		return err
	}
	if len(fails) > 0 {
		return &schemacheck.ValidationError{Failures: fails}
	}
	return nil
}
