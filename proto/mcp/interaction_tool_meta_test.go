package mcp

import "testing"

func TestToolInteractive(t *testing.T) {
	cases := []struct {
		meta                  string
		interactive, declared bool
	}{
		{``, false, false},
		{`{}`, false, false},
		{`{"mcpflow/interactive":true}`, true, true},
		{`{"mcpflow/interactive":false,"x":1}`, false, true},
		{`{"mcpflow/interactive":"yes"}`, false, false},
		{`[1]`, false, false},
	}
	for _, c := range cases {
		if i, d := ToolInteractive([]byte(c.meta)); i != c.interactive || d != c.declared {
			t.Errorf("%s: %v %v, want %v %v", c.meta, i, d, c.interactive, c.declared)
		}
	}
}
