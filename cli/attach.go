package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newAttachCommand builds `mcpscope attach [NAME]`.
func newAttachCommand() *cobra.Command {
	return &cobra.Command{Use: "attach [NAME]", Short: "Open the TUI on a live proxied session",
		RunE: func(*cobra.Command, []string) error { return errors.New("not built yet") }}
}
