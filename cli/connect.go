package cli

import (
	"context"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// connectPlan is what the flags settle before connecting: the answers to
// the server's questions and the roots to expose. Headless runs and the
// TUI build every transport and session through it, the same way.
type connectPlan struct {
	flags   *runFlags
	answers *answers.File // nil when no answers file was given
	roots   []mcp.Root
	// questions, when set, answers the server's questions instead of the
	// answers file: the TUI's bridge to the user, which keeps the roots.
	questions questionSource
	// strays, when set, is told of each answer no request was waiting for.
	strays func(client.StrayAnswer)
	// interactive says a user sits at a terminal: an OAuth flow opens the
	// browser itself (headless, only with $BROWSER set).
	interactive bool
	// onAuthStep, when set, is told of an OAuth flow's checklist as it goes.
	onAuthStep authStepFunc
}

// questionSource answers the server's questions and knows the roots to
// expose (question.Bridge).
type questionSource interface {
	client.ServerRequestHandler
	Roots() []mcp.Root
}

// plan validates the flags and loads the answers file and the roots.
func (f *runFlags) plan() (*connectPlan, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	var file *answers.File // nil: no answers file
	if f.recorded != nil {
		file = f.recorded
	} else if f.answers != "" {
		var err error
		if file, err = loadAnswers(f.answers); err != nil {
			return nil, err
		}
	}
	flagRoots, err := parseRoots(f.roots)
	if err != nil {
		return nil, err
	}
	var fileRoots []mcp.Root
	if file != nil {
		fileRoots = file.Roots
	}
	roots := append(append([]mcp.Root{}, fileRoots...), flagRoots...)
	return &connectPlan{flags: f, answers: file, roots: roots}, nil
}

// open builds the transport for target, reporting every frame to sink and
// warnings to warn, and the session over it, not yet connected. stop is
// called with the reason when a question from the server has no answer.
func (p *connectPlan) open(target Target, sink capture.Sink, warn func(string), stop context.CancelCauseFunc) (client.Transport, *client.Session, error) {
	topts := p.flags.transportOptions(target)
	topts.Sink, topts.Warn = sink, warn
	flow, err := p.authFlow(target, topts, sink, warn)
	if err != nil {
		return nil, nil, err
	}
	if flow != nil {
		topts.Auth = flow
	}
	t, err := newTransport(target, topts)
	if err != nil {
		if flow != nil {
			flow.Close()
		}
		return nil, nil, err
	}
	s := p.session(t, stop)
	if flow != nil {
		flow.SetAlive(s.Nudge)
	}
	return t, s, nil
}

// session builds the session over t, not yet connected; stop is called
// with the reason when a question from the server has no answer.
func (p *connectPlan) session(t client.Transport, stop context.CancelCauseFunc) *client.Session {
	answerer := answers.NewAnswerer(p.answers, p.roots, stop)
	if p.flags.repeatAnswers {
		answerer.Repeat()
	}
	opts := client.Options{
		ClientInfo:      mcp.Implementation{Name: "mcpscope", Version: Version()},
		ProtocolVersion: p.flags.protocol,
		Timeout:         p.flags.timeout,
		HardTimeout:     p.flags.maxTime,
		Handler:         answerer,
		OnStrayAnswer:   p.strays,
		MaxInFlight:     p.flags.maxInFlight,
	}
	if len(p.roots) > 0 {
		opts.Roots = p.roots
	}
	if q := p.questions; q != nil {
		// The roots are declared even when empty: the user may add some.
		opts.Handler, opts.Roots = q, q.Roots()
	}
	return client.New(t, opts)
}
