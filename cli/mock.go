package cli

import "github.com/spf13/cobra"

// newMockCommand builds `mcpscope mock RECORDING`.
func newMockCommand() *cobra.Command {
	return &cobra.Command{Use: "mock RECORDING [--listen ADDR|--http ADDR|--ws ADDR]", Short: "Serve a recording as a deterministic server", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("mock: not built yet") }}
}
