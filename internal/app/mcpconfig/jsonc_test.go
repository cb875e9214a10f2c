package mcpconfig

import (
	"encoding/json"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\n // c\n \"a\": 1, // x\n}", "{\n     \n \"a\": 1      \n}"},
		{`{"a": /* b */ [1, 2,],}`, `{"a":         [1, 2 ] }`},
		{`{"u": "http://x/*y*/", "s": "a\"//"}`, `{"u": "http://x/*y*/", "s": "a\"//"}`},
		{"{/* a\nb */}", "{    \n    }"},
		{`{"a": 1 /* open`, `{"a": 1        `},
		{`["a",/**/]`, `["a"     ]`},
	}
	for _, c := range cases {
		got := string(StripJSONC([]byte(c.in)))
		if got != c.want {
			t.Errorf("StripJSONC(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStripJSONCDecodes(t *testing.T) {
	in := "// VS Code\n{\n  \"servers\": {\n    \"a\": {\"command\": \"x\",}, // trailing\n  },\n  /* none */\n}\n"
	var v map[string]map[string]map[string]string
	if err := json.Unmarshal(StripJSONC([]byte(in)), &v); err != nil {
		t.Fatal(err)
	}
	if v["servers"]["a"]["command"] != "x" {
		t.Fatalf("got %v", v)
	}
}

// FuzzStripJSONC: never panics, keeps the length and every line break, and
// leaves plain JSON that decodes unchanged in meaning.
func FuzzStripJSONC(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,],}`, "// x\n{}", `/* x`, `"\\`, `{"a":"//"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := StripJSONC(in)
		if len(out) != len(in) {
			t.Fatalf("length %d, want %d", len(out), len(in))
		}
		for i := range in {
			if (in[i] == '\n') != (out[i] == '\n') {
				t.Fatalf("line break moved at %d", i)
			}
		}
		var a, b any
		if json.Unmarshal(in, &a) == nil {
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatalf("valid JSON %q became invalid %q: %v", in, out, err)
			}
		}
	})
}
