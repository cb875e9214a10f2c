package mcpconfig

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestDecodeErrorLineColumn(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{"{\n  \"a\": 1,\n  }", "f.json:3:3: invalid character '}' looking for beginning of object key string"},
		{"{\"é\": x}", "f.json:1:7: invalid character 'x' looking for beginning of value"},
		{"{\n\"a\": [1,\n", "f.json:2:9: unexpected end of JSON input"},
	}
	for _, c := range cases {
		var v any
		err := json.Unmarshal([]byte(c.in), &v)
		got := decodeError("f.json", []byte(c.in), err)
		if got.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.in, got, c.want)
		}
		var fe *FileError
		if !errors.As(got, &fe) || !errors.Is(got, err) {
			t.Errorf("%q: %v does not wrap the decoder's error", c.in, got)
		}
	}
}

func TestPositionAt(t *testing.T) {
	data := []byte("ab\ncé\nd")
	for off, want := range map[int64]Position{0: {1, 1}, 2: {1, 3}, 3: {2, 1}, 6: {2, 3}, 7: {3, 1}, 99: {3, 2}, -1: {1, 1}} {
		if got := PositionAt(data, off); got != want {
			t.Errorf("PositionAt(%d) = %v, want %v", off, got, want)
		}
	}
}

// FuzzParseFile: any bytes, in every format, give servers or errors that
// name the file, never a panic.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x","args":["1"],"env":{"K":"v"}}}}`))
	f.Add([]byte(`{"servers":{"a":{"type":"http","url":"http://x"}},"inputs":[{"id":"i"}]}`))
	f.Add([]byte(`{"name":"n","packages":[{"registryType":"npm","identifier":"p"}],"remotes":[{"type":"sse","url":"u"}]}`))
	f.Add([]byte("{\n \"mcpServers\": {\"a\": {\"args\": 1}}\n}"))
	formats := []Format{ClaudeDesktop, ClaudeCode, Cursor, VSCode, Windsurf, Inspector, Registry}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range formats {
			servers, errs := parseFile(Candidate{Path: "f.json", Format: format}, data, "/p")
			for _, s := range servers {
				if s.Name == "" && format != Registry || s.Transport == "" {
					t.Fatalf("%s: a server without a name or transport: %+v", format, s)
				}
			}
			for _, err := range errs {
				var fe *FileError
				if !errors.As(err, &fe) || fe.Path != "f.json" {
					t.Fatalf("%s: %v does not name the file", format, err)
				}
			}
		}
	})
}
