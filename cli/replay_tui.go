package cli

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui"
)

// runReplayTUI opens a recording in the TUI; without a file it lists the
// recent ones in the state directory to pick from first.
func runReplayTUI(cmd *cobra.Command, file string) error {
	if file == "" {
		picked, err := pickRecording(cmd)
		if err != nil || picked == "" {
			return err
		}
		file = picked
	}
	p, err := recordings.NewPlayer(file, capture.Config{}, recordings.SpeedAtOnce)
	if err != nil {
		return withExit(ExitUsage, err)
	}
	r := ui.NewReplay(p)
	images, _ := tuiPictures(cmd.OutOrStdout()) // a bad MCPSCOPE_IMAGES: half blocks
	r.SetImages(images)
	defer r.Close()
	defer ui.LimitResident(p.Store())()
	var root tea.Model = r
	if wrapTUIModel != nil {
		root = wrapTUIModel(r)
	}
	return runProgram(cmd, root)
}

// pickRecording lists the recordings of the state directory and returns
// the one picked, or "" (and a line saying so) when there is none.
func pickRecording(cmd *cobra.Command) (string, error) {
	dir, err := recordings.Dir()
	if err != nil {
		return "", err
	}
	entries, err := recordings.List(dir)
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintf(cmd.OutOrStdout(), "no recordings in %s yet: the TUI records every session there (--record FILE names one)\n", safeLine(dir))
		return "", err
	}
	p := ui.NewPicker(dir, entries)
	var root tea.Model = p
	if wrapTUIModel != nil {
		root = wrapTUIModel(p)
	}
	if err := runProgram(cmd, root); err != nil {
		return "", err
	}
	return p.Chosen(), nil
}

// runProgram runs a TUI model on the command's input and output until it
// quits.
func runProgram(cmd *cobra.Command, m tea.Model) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	_, err := tea.NewProgram(m, programOptions(cmd, ctx)...).Run()
	forgetPictures(cmd.OutOrStdout(), m)
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted) {
		return fmt.Errorf("the TUI stopped: %w", err)
	}
	return nil
}
