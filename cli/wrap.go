package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newWrapCommand builds `mcpscope wrap NAME`.
func newWrapCommand() *cobra.Command {
	return &cobra.Command{Use: "wrap NAME", Short: "Route a host's config entry through mcpscope proxy",
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") }}
}

// newUnwrapCommand builds `mcpscope unwrap NAME`.
func newUnwrapCommand() *cobra.Command {
	return &cobra.Command{Use: "unwrap NAME", Short: "Restore a config entry wrap changed",
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") }}
}
