package proto

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// PrettyJSON indents a JSON body by two spaces per level, for display. Key
// order, number spelling and string escapes are kept as they were.
func PrettyJSON(body []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(body) + len(body)/4)
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return nil, fmt.Errorf("JSON body cannot be indented: %w", err)
	}
	return out.Bytes(), nil
}
