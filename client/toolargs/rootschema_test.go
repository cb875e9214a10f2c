package toolargs

import (
	"errors"
	"strings"
	"testing"
)

// Root schemas as generators write them type their keys: a root $ref
// (zod-to-json-schema with a name, pydantic's recursive models), allOf
// (zod's intersection), anyOf / oneOf of objects (zod's union, pydantic's
// discriminated union), and a typo gets "did you mean".
func TestRootCompositionsAreTyped(t *testing.T) {
	for name, schema := range map[string]string{
		"zod named $ref":         `{"$ref":"#/definitions/Input","definitions":{"Input":{"type":"object","properties":{"zip":{"type":"string"},"n":{"type":"integer"}},"required":["zip"],"additionalProperties":false}},"$schema":"http://json-schema.org/draft-07/schema#"}`,
		"pydantic $defs":         `{"$ref":"#/$defs/A","$defs":{"A":{"type":"object","properties":{"zip":{"type":"string"},"n":{"type":"integer"},"next":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}},"required":["zip"]}}}`,
		"zod intersection allOf": `{"allOf":[{"type":"object","properties":{"zip":{"type":"string"}},"required":["zip"]},{"type":"object","properties":{"n":{"type":"integer"}}}],"$schema":"http://json-schema.org/draft-07/schema#"}`,
		"zod union anyOf":        `{"anyOf":[{"type":"object","properties":{"zip":{"type":"string"},"n":{"type":"integer"}},"required":["zip"],"additionalProperties":false},{"type":"object","properties":{"city":{"type":"string"},"n":{"type":"integer"}},"required":["city"],"additionalProperties":false}],"$schema":"http://json-schema.org/draft-07/schema#"}`,
		"pydantic discriminated oneOf": `{"type":"object","oneOf":[{"$ref":"#/$defs/Zip"},{"$ref":"#/$defs/City"}],"discriminator":{"propertyName":"kind"},` +
			`"$defs":{"Zip":{"type":"object","properties":{"kind":{"const":"zip","type":"string"},"zip":{"type":"string"},"n":{"type":"integer"}},"required":["kind","zip"]},` +
			`"City":{"type":"object","properties":{"kind":{"const":"city","type":"string"},"city":{"type":"string"},"n":{"type":"integer"}},"required":["kind","city"]}}}`,
	} {
		words := []string{"zip=10001", "n=7"}
		if strings.Contains(name, "discriminated") {
			words = append(words, "kind=zip")
		}
		got, err := ForTool([]byte(schema), words, nil)
		if err != nil || !strings.Contains(string(got), `"zip":"10001"`) || !strings.Contains(string(got), `"n":7`) {
			t.Errorf("%s: %v -> %s, %v", name, words, got, err)
		}
		if _, err := ForTool([]byte(schema), []string{"zip=1", "n=x"}, nil); err == nil || !strings.Contains(err.Error(), "integer") {
			t.Errorf("%s: n=x is not refused as no integer: %v", name, err)
		}
		if _, err := ForTool([]byte(schema), []string{"zipp=1"}, nil); err == nil || !strings.Contains(err.Error(), "did you mean zip") {
			t.Errorf("%s: the typo zipp=1: %v", name, err)
		}
	}
}

// A key the branches of a union type differently takes its VALUE as
// typed; one they agree on is typed.
func TestRootUnionDisagreeingBranches(t *testing.T) {
	schema := `{"anyOf":[{"type":"object","properties":{"v":{"type":"integer"}}},{"type":"object","properties":{"v":{"type":"string"}}}]}`
	got, err := ForTool([]byte(schema), []string{"v=abc"}, nil)
	if err != nil || string(got) != `{"v":"abc"}` {
		t.Errorf("v=abc -> %s, %v", got, err)
	}
}

// A required key is named safely (its escape shown, not sent to the
// terminal), and an error of reading a value gets no type appended.
func TestMessagesNameKeysSafelyAndTypeOnlyTypingErrors(t *testing.T) {
	_, err := ForTool([]byte(`{"type":"object","properties":{"a\u001b]0;X\u0007":{"type":"string"}},"required":["a\u001b]0;X\u0007"]}`), nil, nil)
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("missing required: %q", err)
	}
	_, err = ForTool([]byte(`{"type":"object","properties":{"a\u001b":{"type":"string"}}}`), []string{"a\x1b=1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	read := false
	_, err = ForTool([]byte(`{"type":"object","properties":{"n":{"type":"number"},"m":{"type":"number"}}}`), []string{"n=@-", "m=@-"},
		func(path string) ([]byte, error) {
			if read {
				return nil, errors.New("standard input is read once, by the first @-")
			}
			read = true
			return []byte("1"), nil
		})
	if err == nil || !strings.Contains(err.Error(), "standard input is read once") || strings.Contains(err.Error(), "(number)") {
		t.Errorf("a second @-: %v", err)
	}
	_, err = ForTool([]byte(`{"type":"object","properties":{"n":{"type":"number"}}}`), []string{"n=abc"}, nil)
	if err == nil || !strings.Contains(err.Error(), "(number)") {
		t.Errorf("a typing error: %v", err)
	}
}
