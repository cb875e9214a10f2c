package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// newDoctorCommand builds `mcpscope doctor TARGET`.
func newDoctorCommand() *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "doctor [flags] TARGET",
		Short: "Walk the layers to TARGET and name the first that fails",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("doctor is not available yet")
		},
	}
	f.register(cmd.Flags())
	return cmd
}
