package cli

import "github.com/spf13/cobra"

// newBenchCommand builds `mcpscope bench … TARGET`.
func newBenchCommand() *cobra.Command {
	return &cobra.Command{Use: "bench [flags] (tool NAME [K=V…] | METHOD [PARAMS_JSON] | --recording FILE) TARGET", Short: "Load-test one call", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("bench: not built yet") }}
}
