package recordings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// memberNames are the member names of a record line as mcpscope writes
// them.
var memberNames = func() map[string]bool {
	names := map[string]bool{}
	t := reflect.TypeFor[line]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names[name] = true
	}
	return names
}()

// checkMembers refuses a line whose member names are not mcpscope's own
// spelling (a name that differs from one in case or is escaped) or that
// holds null for a frame's bytes or message body, none of which mcpscope
// writes: encoding/json would read them differently from a line read in
// pieces, which knows only the names as written. Anything that is not an
// object is left to encoding/json.
func checkMembers(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		from := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		name, _ := tok.(string)
		raw := bytes.TrimLeft(b[from:dec.InputOffset()], " \t\r\n,")
		if !bytes.Equal(raw, []byte(`"`+name+`"`)) && memberNames[name] {
			return fmt.Errorf("member %s is escaped, which mcpscope never writes", raw)
		}
		for known := range memberNames {
			if name != known && strings.EqualFold(name, known) {
				return fmt.Errorf("member %q is spelled %q by mcpscope", name, known)
			}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if spilledIndex(name) >= 0 && string(v) == "null" {
			return fmt.Errorf("member %q is null, which mcpscope never writes", name)
		}
	}
	return nil
}
