package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newExportCommand builds `mcpscope export [--format jsonl|har|text] FILE`.
func newExportCommand() *cobra.Command {
	format := "jsonl"
	cmd := &cobra.Command{
		Use:   "export [--format jsonl|har|text] FILE",
		Short: "Write a recording as JSON Lines for jq, HAR for HTTP viewers, or trace text",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("export is not available yet")
		},
	}
	cmd.Flags().StringVar(&format, "format", format, "output `FORMAT`: jsonl, har or text")
	return cmd
}
