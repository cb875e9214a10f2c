package cli

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/doctor"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/question"
)

// Screen size of the TUI when its output is not a terminal (a test, a
// recording): the terminal cannot be asked.
const (
	pipeColumns = 160
	pipeLines   = 48
)

// wrapTUIModel, when set, wraps the root model before the program runs;
// tests use it to watch the screens the TUI draws.
var wrapTUIModel func(tea.Model) tea.Model

// insecureNotice is shown in the TUI's status bar for as long as --insecure is in force.
const insecureNotice = "--insecure: the server certificate is NOT verified"

// runRootTUI opens the TUI for `mcpscope [flags] TARGET`: the same flags
// and TARGET parsing as call, and nothing else on the line.
func runRootTUI(cmd *cobra.Command, args []string, f *runFlags) error {
	positional, target, err := f.target(cmd, args)
	if err != nil {
		return err
	}
	if len(positional) > 0 {
		return usagef("unexpected argument %q before the TARGET: mcpscope [flags] TARGET opens the TUI", positional[0])
	}
	return runTUI(cmd, f, target, nil)
}

// tuiDemo is what the TUI knows of the embedded demo it is connected to.
type tuiDemo struct {
	onConnect []ui.Request        // sent after each connect
	tools     *explore.KnownTools // the demo's tools, on a transport with no tools/list
}

// runTUI connects to target the way the headless commands do and runs the
// TUI until the user quits. demo is nil for any server but mcpscope's own
// demo: only the demo has the demo's shortcut keys.
func runTUI(cmd *cobra.Command, f *runFlags, target Target, demo *tuiDemo) error {
	if f.trace || f.progress {
		return usagef("--trace and --progress write to stderr for the headless commands; the TUI shows every frame itself")
	}
	if f.findings {
		return usagef("--findings writes to stderr for the headless commands; in the TUI, ! opens the Findings view")
	}
	if len(f.meta) > 0 {
		return usagef("--meta applies to the headless commands; in the TUI, edit _meta in the request composer")
	}
	plan, err := f.plan()
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	var prog *tea.Program
	// The program may still be starting (Init dials): never block on Send.
	report := func(err error) { go prog.Send(ui.ErrorMsg{Err: err}) }
	dial := func(sink capture.Sink) (ui.Link, error) {
		t, s, err := plan.open(target, sink, func(line string) { report(errors.New(line)) }, func(cause error) { report(cause) })
		link := ui.Link{Transport: t, Session: s}
		if target.Transport == "gateway" {
			link.Stream = gatewayStreamer(f, target, sink)
		}
		return link, err
	}
	cfg := ui.Config{Store: capture.NewStore(capture.Config{}), Dial: dial, Target: target.String(), LogLevel: f.logLevel}
	if demo != nil {
		cfg.Demo, cfg.OnConnect, cfg.KnownTools = true, demo.onConnect, demo.tools
	}
	// The doctor's sessions answer from the answers file, never through
	// the TUI's questions: a copy of the plan taken before they are set.
	doctorPlan := *plan
	if dcfg, err := doctorConfig(&doctorPlan, target); err == nil {
		// The stored OAuth token is read at each walk: it may have been
		// refreshed since the TUI started.
		cfg.Diagnose = func(ctx context.Context) checklist.Report {
			return doctor.Run(ctx, withStoredToken(dcfg, &doctorPlan, target, func(line string) { report(errors.New(line)) }))
		}
	}
	// An OAuth flow opens the browser and shows its checklist.
	plan.interactive = true
	var authSeq atomic.Uint64
	plan.onAuthStep = func(r checklist.Report, done bool) {
		msg := ui.AuthStepsMsg{Report: r, Done: done, Seq: authSeq.Add(1)}
		go prog.Send(msg)
	}
	if f.answers == "" {
		// Without an answers file the user answers the server's questions.
		cfg.Questions = question.NewBridge(plan.roots)
		plan.questions = cfg.Questions
	}
	if f.insecure {
		cfg.Notice = insecureNotice
	}
	rec, err := f.startRecording(target, true, nil) // the status bar says when it stopped
	if err != nil {
		return err
	}
	if rec != nil {
		cfg.Tap, cfg.Recording = rec, rec.Path()
	}
	if cfg.KnownTools == nil {
		cfg.KnownTools = recordedTools(target, cfg.Recording)
	}
	cfg.RecordHeader, cfg.RecordOptions = f.recordHeader(target), f.recordOptions(target)
	model := ui.New(cfg)
	images, imagesErr := tuiPictures(cmd.OutOrStdout())
	model.SetImages(images)
	defer ui.LimitResident(cfg.Store)()
	opts := programOptions(cmd, ctx)
	var root tea.Model = model
	if wrapTUIModel != nil {
		root = wrapTUIModel(model)
	}
	prog = tea.NewProgram(root, opts...)
	if imagesErr != nil {
		report(imagesErr) // in the status line: half blocks meanwhile
	}
	if cfg.Questions != nil {
		cfg.Questions.SetSend(prog.Send)
	}
	_, err = prog.Run()
	forgetPictures(cmd.OutOrStdout(), model)
	closeErr := model.Close()
	if rec != nil {
		if rerr := rec.Close(); rerr != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "mcpscope: %v; the recording %s holds the %s before that\n", rerr, rec.Path(), plural.Count(rec.Frames(), "frame", "frames"))
		} else if rec.Frames() > 0 {
			// Said once the screen is restored: where the session went.
			fmt.Fprintf(cmd.ErrOrStderr(), "recorded to %s · %s\n", termtext.Line(rec.Path()), termtext.Line(recordings.ReplayCommand(rec.Path())))
		}
	}
	switch {
	case err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrInterrupted):
		return fmt.Errorf("the TUI stopped: %w", err)
	case closeErr != nil:
		return connectionFailed(fmt.Errorf("closing the session: %w", closeErr))
	}
	// Quitting does not make a connection that failed a success.
	if err := model.ConnectError(); err != nil {
		return connectionFailed(err)
	}
	return nil
}

// programOptions run a TUI on the command's input and output, within ctx;
// on an output that is not a terminal, at the pipe's screen size.
func programOptions(cmd *cobra.Command, ctx context.Context) []tea.ProgramOption {
	out := cmd.OutOrStdout()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(cmd.InOrStdin()), tea.WithOutput(out)}
	if !isTerminal(out) {
		opts = append(opts, tea.WithWindowSize(pipeColumns, pipeLines))
	}
	return opts
}
