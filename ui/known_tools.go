package ui

import "github.com/mcpscope/mcpscope/ui/explore"

// KnownTools are the tools the explorer offers on a transport with no
// tools/list (Config.KnownTools); it makes the driver an
// explore.ToolSource.
func (d driver) KnownTools() *explore.KnownTools { return d.m.cfg.KnownTools }
