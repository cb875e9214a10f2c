package cli

import (
	"path/filepath"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/explore"
)

// recordedTools are, on a transport with no tools/list (tools-http,
// tools-ws), the tools the newest recording of the same target in the
// state directory called, other than current (the recording of this
// session); nil on any other transport or when there are none.
func recordedTools(target Target, current string) *explore.KnownTools {
	if target.Transport != "tools-http" && target.Transport != "tools-ws" {
		return nil
	}
	dir, err := recordings.Dir()
	if err != nil {
		return nil
	}
	path, err := recordings.Latest(dir, recordTarget(target), current)
	if err != nil || path == "" {
		return nil
	}
	names, err := recordings.CalledTools(path)
	if err != nil || len(names) == 0 {
		return nil
	}
	tools := make([]mcp.Tool, len(names))
	for i, n := range names {
		tools[i] = mcp.Tool{Name: n}
	}
	return &explore.KnownTools{From: "tools called in the recording " + termtext.Line(filepath.Base(path)), Tools: tools}
}
