package gateway

import "testing"

func TestToolsFrameType(t *testing.T) {
	cases := []struct {
		body string
		typ  string
		ok   bool
	}{
		{`{"type":"ping"}`, "ping", true},
		{` {"type":"hello","data":1}`, "hello", true},
		{`{"jsonrpc":"2.0","method":"notifications/message"}`, "", false},
		{`{"type":"start","id":"0f8fad5b-d9cb-469f-a165-70867728950e"}`, "", false},
		{`{"type":1}`, "", false},
		{`["ping"]`, "", false},
		{`{"type":"ping"`, "", false},
	}
	for _, c := range cases {
		if typ, ok := ToolsFrameType([]byte(c.body)); typ != c.typ || ok != c.ok {
			t.Errorf("%s: %q %v, want %q %v", c.body, typ, ok, c.typ, c.ok)
		}
	}
}
