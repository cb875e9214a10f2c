package cli

import (
	"errors"

	"github.com/spf13/cobra"
)

// runReplayAgainst re-sends a recording's requests to a target and diffs
// the answers.
func runReplayAgainst(cmd *cobra.Command, args []string, f *replayFlags) error {
	return errors.New("replay --against is not available yet")
}
