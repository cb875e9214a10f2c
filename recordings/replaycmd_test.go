package recordings

import "testing"

// The replay command quotes a path only when a shell would split or
// expand it.
func TestReplayCommand(t *testing.T) {
	for path, want := range map[string]string{
		"/home/u/.local/state/mcpscope/recordings/2026-11-29T08-40-00-demo.mcpscope.jsonl": "mcpscope replay /home/u/.local/state/mcpscope/recordings/2026-11-29T08-40-00-demo.mcpscope.jsonl",
		"my runs/it's.jsonl": `mcpscope replay 'my runs/it'"'"'s.jsonl'`,
		"~x":                 "mcpscope replay '~x'",
	} {
		if got := ReplayCommand(path); got != want {
			t.Errorf("%q: %s, want %s", path, got, want)
		}
	}
}
