package mcpconfig

import (
	"strings"
	"testing"
)

// commandOf parses data as a file of format f and returns the command of
// its server name ("" when it has none), and whether FindEntry finds the
// same entry (its command member holds that command).
func commandOf(t *testing.T, f Format, data, name string) (command string, spanAgrees bool) {
	t.Helper()
	servers, _ := Parse(Candidate{Path: "mcp.json", Format: f}, []byte(data), "/srv/project")
	for _, s := range servers {
		if s.Name == name {
			command = s.Command
		}
	}
	span, err := FindEntry([]byte(data), f, name, "/srv/project")
	if err != nil {
		return command, command == ""
	}
	m, ok := span.Member("command")
	if command == "" {
		return command, !ok
	}
	return command, ok && data[m.ValueStart:m.ValueEnd] == `"`+command+`"`
}

// Keys are read exactly, as the hosts (JSON.parse) read them: a key that
// differs by case is not the one they use, and of a duplicate key the
// last counts. The loader and FindEntry agree on the entry and member.
func TestKeysAreReadExactlyAsTheHostsDo(t *testing.T) {
	for _, c := range []struct {
		data, name, want string
	}{
		{`{"mcpServers":{"a":{"command":"real-server","Command":"legacy"}}}`, "a", "real-server"},
		{`{"mcpServers":{"a":{"Command":"legacy","command":"real-server"}}}`, "a", "real-server"},
		{`{"mcpServers":{"a":{"COMMAND":"legacy","url":"http://h/mcp"}}}`, "a", ""},
		{`{"MCPServers":{"a":{"command":"x"}},"mcpServers":{"a":{"command":"y"}}}`, "a", "y"},
		{`{"mcpServers":{"a":{"command":"x"}},"mcpServers":{"b":{"command":"y"}}}`, "a", ""},
		{`{"mcpServers":{"a":{"command":"x"}},"mcpServers":{"b":{"command":"y"}}}`, "b", "y"},
		{`{"projects":{"/srv/project":{"MCPServers":{"a":{"command":"p"}}}},"mcpServers":{"a":{"command":"top"}}}`, "a", "top"},
		{`{"projects":{"/srv/project":{"mcpServers":{"a":{"command":"p"}}}},"mcpServers":{"a":{"command":"top"}}}`, "a", "p"},
	} {
		got, agrees := commandOf(t, ClaudeCode, c.data, c.name)
		if got != c.want || !agrees {
			t.Errorf("%s: %s runs %q (FindEntry agrees: %v), want %q", c.data, c.name, got, agrees, c.want)
		}
	}
}

// A file with both lists: VS Code reads servers, the other hosts
// mcpServers; each reads the other list only when its own is missing or
// null. The loader and FindEntry agree.
func TestEachHostReadsItsOwnList(t *testing.T) {
	const both = `{"servers":{"a":{"command":"servers"}},"mcpServers":{"a":{"command":"mcpServers"}}}`
	for _, c := range []struct {
		f          Format
		data, want string
	}{
		{VSCode, both, "servers"},
		{Cursor, both, "mcpServers"},
		{ClaudeDesktop, both, "mcpServers"},
		{VSCode, `{"servers":null,"mcpServers":{"a":{"command":"mcpServers"}}}`, "mcpServers"},
		{Windsurf, `{"servers":{"a":{"command":"servers"}}}`, "servers"},
	} {
		got, agrees := commandOf(t, c.f, c.data, "a")
		if got != c.want || !agrees {
			t.Errorf("%s %s: a runs %q (FindEntry agrees: %v), want %q", c.f, c.data, got, agrees, c.want)
		}
	}
}

// A type error in an entry read exactly keeps its place in the file.
func TestExactKeysKeepErrorPlaces(t *testing.T) {
	data := "{\"mcpServers\":{\n\"a\":{\"command\":\"x\",\n\"args\":\"-v\"}}}"
	_, errs := Parse(Candidate{Path: "mcp.json", Format: ClaudeDesktop}, []byte(data), "")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "mcp.json:3:8") || !strings.Contains(errs[0].Error(), `"args" must be a list`) {
		t.Errorf("errors: %v", errs)
	}
}
