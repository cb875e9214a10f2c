package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// runReplayTUI opens a recording in the TUI, or lists the recent ones.
func runReplayTUI(cmd *cobra.Command, file string, f *replayFlags) error {
	return errors.New("replay is not available yet")
}
