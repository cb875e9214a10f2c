package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newServersCommand builds `mcpscope servers`.
func newServersCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "servers",
		Short: "List every MCP server found in the user's config files, with its source",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return errors.New("servers is not available yet")
		},
	}
}
