package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/mcpscope/mcpscope/client"
	"github.com/spf13/cobra"
)

// Version returns mcpscope's version: the module version when built from a
// tagged module, otherwise the engine's version.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	return client.Version
}

// newVersionCommand builds `mcpscope version`.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print mcpscope's version",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "mcpscope %s\n", Version())
			return err
		},
	}
}
