package cli

import "github.com/spf13/cobra"

// newLintCommand builds `mcpscope lint TARGET`.
func newLintCommand() *cobra.Command {
	return &cobra.Command{Use: "lint [flags] TARGET", Short: "Check what a server offers the way clients read it, and its token cost", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("lint: not built yet") }}
}
