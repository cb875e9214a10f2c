package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/proxy/live"
	"github.com/mcpscope/mcpscope/ui"
)

// attachDialTimeout bounds the wait for a live session's header.
const attachDialTimeout = 10 * time.Second

// newAttachCommand builds `mcpscope attach [NAME]`.
func newAttachCommand() *cobra.Command {
	var list bool
	cmd := &cobra.Command{
		Use:   "attach [NAME]",
		Short: "Open the TUI on a live proxied session",
		Long: "attach opens the TUI on a session mcpscope proxy is relaying: every frame the host and the\n" +
			"server exchanged so far, then each new one as it crosses. From the TUI you can pause messages,\n" +
			"edit or drop them, inject requests and set faults.\n\n" +
			"With NAME, the newest live session of that name (waiting for one to start when none is live);\n" +
			"without, the only live session, or a picker of them, newest first. When the session ends it stays\n" +
			"readable, and the host's next session of the same server appears when it starts.",
		Example: "  mcpscope proxy --name everything -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope attach everything\n" +
			"  mcpscope attach --list",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			if list {
				return listLive(cmd, name)
			}
			return runAttach(cmd, name)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "print the live sessions (name, pid, started, transport, target, recording), newest first, and exit")
	return cmd
}

// runAttach finds the session to attach to and runs the attach screen on
// it.
func runAttach(cmd *cobra.Command, name string) error {
	e, err := chooseLive(cmd, name)
	if err != nil || e == nil {
		return err
	}
	v, err := dialLive(cmd.Context(), *e)
	if err != nil {
		return err
	}
	viewers := []*live.Viewer{v}
	var mu sync.Mutex
	after := e.Started
	next := func(ctx context.Context) (ui.AttachSource, error) {
		mu.Lock()
		since := after
		mu.Unlock()
		n, err := live.Next(ctx, e.Name, since)
		if err != nil {
			return nil, err
		}
		nv, err := dialLive(ctx, n)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		after = n.Started
		viewers = append(viewers, nv)
		mu.Unlock()
		return nv, nil
	}
	m := ui.NewAttach(v, next)
	images, _ := tuiPictures(cmd.OutOrStdout()) // a bad MCPSCOPE_IMAGES: half blocks
	m.SetImages(images)
	defer ui.LimitResident(v.Store())()
	defer func() {
		m.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, v := range viewers {
			v.Close()
		}
	}()
	var root tea.Model = m
	if wrapTUIModel != nil {
		root = wrapTUIModel(m)
	}
	return runProgram(cmd, root)
}

// chooseLive is the live session to attach to: the newest of name
// (waiting for one when none is live), else the only one, else the one
// picked; nil when the user left the picker.
func chooseLive(cmd *cobra.Command, name string) (*live.Entry, error) {
	var all []live.Entry
	var err error
	if name != "" {
		all, err = live.Named(name)
	} else {
		all, err = live.List()
	}
	if err != nil {
		return nil, withExit(ExitConnection, err)
	}
	switch {
	case len(all) == 0 && name != "":
		return waitForLive(cmd, name)
	case len(all) == 0:
		return nil, withExit(ExitConnection, errors.New("no proxied session is live: start one with mcpscope proxy --name NAME -- CMD [ARGS…] (or route a host's server through it with mcpscope wrap NAME), then mcpscope attach NAME"))
	case len(all) == 1 || name != "":
		return &all[0], nil
	}
	return pickLive(cmd, all)
}

// waitForLive waits, until interrupted, for a session called name.
func waitForLive(cmd *cobra.Command, name string) (*live.Entry, error) {
	fmt.Fprintf(cmd.ErrOrStderr(), "waiting for %s to start (mcpscope proxy --name %s …)\n", name, name)
	ctx, stop := InterruptContext(cmd.Context())
	defer stop()
	e, err := live.Next(ctx, name, time.Time{})
	if err != nil {
		if interrupted(ctx) {
			return nil, ErrInterrupted
		}
		return nil, withExit(ExitConnection, err)
	}
	return &e, nil
}

// dialLive attaches to e's socket.
func dialLive(ctx context.Context, e live.Entry) (*live.Viewer, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, attachDialTimeout)
	defer cancel()
	v, err := live.Dial(ctx, e.Socket)
	if err != nil {
		return nil, withExit(ExitConnection, fmt.Errorf("%s (pid %d): %w", e.Name, e.PID, err))
	}
	return v, nil
}
