package lint

import (
	"strings"
	"testing"
)

// TestToolNamePortableCountsTheHostPrefix: a name without a dot is flagged
// once Claude Code's mcp__SERVER__ prefix leaves too little of the 64
// characters, and the message says how long a server name still fits.
func TestToolNamePortableCountsTheHostPrefix(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string // "" when not flagged
	}{
		{44, ""},
		{45, "a server configured under a name longer than 12 makes"},
		{56, "a server configured under a name longer than 1 makes"},
		{57, "which no server name keeps within the 64 characters"},
		{58, "which no server name keeps within the 64 characters"},
		{64, "which no server name keeps within the 64 characters"},
	} {
		name := strings.Repeat("a", tc.n)
		fs := findingsOf(Check(tools(withSchema(name, okSchema))), "tool-name-portable")
		switch {
		case tc.want == "" && len(fs) != 0:
			t.Errorf("%d characters: %+v", tc.n, fs)
		case tc.want != "" && (len(fs) != 1 || !strings.Contains(fs[0].Message, tc.want)):
			t.Errorf("%d characters: %+v, want %q", tc.n, fs, tc.want)
		}
	}
	fs := findingsOf(Check(tools(withSchema("admin.users.get", okSchema))), "tool-name-portable")
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "VS Code's Copilot warns and renames") {
		t.Errorf("dotted name: %+v", fs)
	}
}

// TestRemoteRefByEra: from 2026-07-28 the message cites that revision's
// rule on unresolved external references.
func TestRemoteRefByEra(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"$ref":"https://example.com/a.json"}}}`
	for version, want := range map[string]string{"2025-11-25": "clients fetch no remote schema", "2026-07-28": "should reject the schema"} {
		fs := findingsOf(Check(Offer{ProtocolVersion: version, Tools: raws(withSchema("a", schema))}), "schema-remote-ref")
		if len(fs) != 1 || !strings.Contains(fs[0].Message, want) {
			t.Errorf("%s: %+v, want %q", version, fs, want)
		}
	}
}
