// Package toolargs turns the arguments people type (KEY=VALUE, KEY:=JSON,
// KEY=@FILE) into the arguments object of a tools/call or prompts/get,
// typed and checked by the tool's inputSchema or the prompt's arguments.
package toolargs

import (
	"encoding/json"
	"errors"
)

// Source reads the contents of a file named by KEY=@FILE.
type Source func(path string) ([]byte, error)

// ForTool converts words (KEY=VALUE, KEY:=JSON, KEY=@FILE) into the
// arguments object of a tools/call by the tool's inputSchema. A key the
// schema does not declare, a value of the wrong type, a value outside an
// enum or a required key left out is refused with the schema's words.
func ForTool(inputSchema json.RawMessage, words []string, read Source) (json.RawMessage, error) {
	return nil, errors.New("toolargs: not built yet")
}

// ForPrompt converts words into the arguments of a prompts/get: every
// value is a string, the prompt's declared arguments are the keys it
// takes and its required ones must be given.
func ForPrompt(arguments json.RawMessage, words []string, read Source) (map[string]string, error) {
	return nil, errors.New("toolargs: not built yet")
}
