package wrap

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
)

const (
	fuzzExe     = "/usr/local/bin/mcpscope"
	fuzzSession = "fuzzed"
	fuzzCwd     = "/srv/project"
)

// checkRoundTrip wraps every server of data (a config file of format f)
// that wrap would accept and checks the rewrite: it changes no byte
// outside the entry, the file still parses with the same servers, the
// entry runs mcpscope proxy with the original command line or URL, and
// putting the original entry text back gives data again.
func checkRoundTrip(t *testing.T, data []byte, f mcpconfig.Format) {
	c := mcpconfig.Candidate{Path: "mcp.json", Format: f}
	servers, _ := mcpconfig.Parse(c, data, fuzzCwd)
	for _, s := range servers {
		if s.Wrapped {
			continue
		}
		span, err := mcpconfig.FindEntry(data, f, s.Name, fuzzCwd)
		if err != nil {
			t.Fatalf("%s: the loader reads %q but FindEntry does not find it: %v\n%q", f, s.Name, err, data)
		}
		wrapped, err := Rewrite(data, span, s, fuzzExe, fuzzSession, []string{"--faults", "/f.yaml"})
		if err != nil {
			continue // refused: the file is not written
		}
		end := span.End + len(wrapped) - len(data)
		if end < span.Start || !bytes.Equal(data[:span.Start], wrapped[:span.Start]) || !bytes.Equal(data[span.End:], wrapped[end:]) {
			t.Fatalf("%s: wrapping %q changed bytes outside the entry:\n%q\n%q", f, s.Name, data, wrapped)
		}
		if checkWrapped(c, data, wrapped, span, end, s.Name, fuzzCwd) != nil {
			continue // refused by Wrap: the file is not written
		}
		after, _ := mcpconfig.Parse(c, wrapped, fuzzCwd)
		if len(after) != len(servers) {
			t.Fatalf("%s: wrapping %q changed the servers from %d to %d:\n%q", f, s.Name, len(servers), len(after), wrapped)
		}
		for _, w := range after {
			if w.Name != s.Name {
				continue
			}
			if w.ProxyName != fuzzSession || w.Transport != s.Transport || w.Command != s.Command || !slices.Equal(w.Args, s.Args) || w.URL != s.URL {
				t.Fatalf("%s: %q wrapped runs %+v, want the original %+v\n%q", f, s.Name, w, s, wrapped)
			}
		}
		back := apply(wrapped, []edit{{span.Start, end, string(data[span.Start:span.End])}})
		if !bytes.Equal(back, data) {
			t.Fatalf("%s: restoring %q does not give the file back:\n%q\n%q", f, s.Name, back, data)
		}
	}
}

// FuzzRewrite: on any JSONC input, wrapping an entry never changes a byte
// outside it and round-trips.
func FuzzRewrite(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers":{"a":{"command":"x","args":["1"]},"b":{"url":"http://h/mcp","headers":{"K":"V"}}}}`,
		"\uFEFF{\r\n\t// c\r\n\t\"servers\": {\r\n\t\t\"a\": {\"type\": \"sse\", \"url\": \"http://h\", /* x */},\r\n\t},\r\n}",
		`{"mcpServers":null,"servers":{"s":{"type":"stdio","command":"c"}}}`,
		`{"projects":{"/srv":{"mcpServers":{"p":{"command":"n","args":[]}}}},"mcpServers":{"p":{"command":"u"}}}`,
		`{"mcpServers":{"w":{"serverUrl":"https://x/mcp"},"d":{"command":"a","command":"b"}}}`,
		`{"mcpServers":{"e\u0073c":{"command":"\"q\"","args":["<&>","\\"]}}}`,
		`{"servers":{"a":{"command":"s"}},"mcpServers":{"a":{"command":"m","Command":"c","ARGS":[]},"a":{"url":"http://h"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		for _, format := range []mcpconfig.Format{mcpconfig.VSCode, mcpconfig.ClaudeCode, mcpconfig.Windsurf} {
			checkRoundTrip(t, data, format)
		}
	})
}

// The fixtures of FuzzRewrite's seeds pass the round trip, and every
// stdio entry among them is wrapped (none refused).
func TestRewriteRoundTrip(t *testing.T) {
	data := []byte("\uFEFF{\r\n\t\"servers\": {\r\n\t\t\"a\": {\"command\": \"npx\", // c\r\n\t\t},\r\n\t\t\"b\": {\"type\": \"http\", \"url\": \"http://h/mcp\",},\r\n\t},\r\n}\r\n")
	checkRoundTrip(t, data, mcpconfig.VSCode)
	servers, errs := mcpconfig.Parse(mcpconfig.Candidate{Format: mcpconfig.VSCode}, data, "")
	if len(errs) > 0 || len(servers) != 2 {
		t.Fatalf("%v %v", servers, errs)
	}
	span, err := mcpconfig.FindEntry(data, mcpconfig.VSCode, "a", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Rewrite(data, span, servers[0], fuzzExe, "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"command": "/usr/local/bin/mcpscope", "args": ["proxy", "--name", "a", "--", "npx"], // c` + "\r\n\t\t}"
	if !strings.Contains(string(got), want) {
		t.Errorf("the stdio entry without args reads\n%q\nwant it to hold\n%q", got, want)
	}
}

// A unified diff shows the changed line between its neighbours.
func TestUnifiedDiff(t *testing.T) {
	a := []byte("{\n  \"command\": \"x\",\n  \"args\": [\"1\"]\n}")
	b := []byte("{\n  \"command\": \"x\",\n  \"args\": [\"2\"]\n}")
	want := "--- old\n+++ new\n@@ -1,4 +1,4 @@\n {\n   \"command\": \"x\",\n-  \"args\": [\"1\"]\n+  \"args\": [\"2\"]\n }\n"
	if got := UnifiedDiff("old", "new", a, b, 1, 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if UnifiedDiff("a", "b", a, a, 1, 1) != "" {
		t.Error("the same text differs")
	}
}
