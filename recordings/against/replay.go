package against

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/internal/app/jsondiff"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
)

// Peer is the live session a replay sends the recording's requests to.
type Peer interface {
	// Call sends one request and returns its result; a JSON-RPC error
	// answer is a *client.RPCError.
	Call(ctx context.Context, method string, params any) (json.RawMessage, error)
	// Interact runs an interactive session started with start, answering
	// its prompts with answers in order, and returns its outcome as
	// answers.Line renders it. A prompt left without an answer is an
	// *answers.UnansweredError.
	Interact(ctx context.Context, start mcp.InteractionStartParams, answers answers.Prompts) (json.RawMessage, error)
	// ToolFailure judges the result of a tools/call sent with params: nil
	// when it is not a failure.
	ToolFailure(ctx context.Context, params json.RawMessage, result []byte) *client.ToolFailure
}

// Replayer sends a recording's requests again over a connected session
// and reports, request by request, how the answers compare.
type Replayer struct {
	sess    *Session
	opts    jsondiff.Options
	out     io.Writer
	current *replayStep // the step in flight

	ok, differs, failed, skipped int
	// outcomes are what report said of each step, in order (see JUnit).
	outcomes []stepOutcome
	// clock times the run and its steps; began is when New was called,
	// stepBegan when the step in flight was sent.
	clock            func() time.Time
	began, stepBegan time.Time
	// firstFailure is the first tool result that is a failure.
	firstFailure *client.ToolFailure
}

// New returns a Replayer of sess that compares answers with opts and
// writes a line per request, and the totals, on out.
func New(sess *Session, opts jsondiff.Options, out io.Writer) *Replayer {
	return &Replayer{sess: sess, opts: opts, out: out, clock: time.Now, began: time.Now()}
}

// MismatchError is the outcome of a replay whose answers differ from the
// recording's, or whose tool results are failures, in one line.
type MismatchError struct {
	Summary string
}

// Error is the summary.
func (e *MismatchError) Error() string { return e.Summary }

// Run is the work of the replay over peer: every step in order, then the
// totals. Answers that differ make it fail once every step is done, with a
// *MismatchError, or the *client.ToolFailure when one tool result failed
// and nothing else differs.
func (p *Replayer) Run(ctx context.Context, peer Peer) error {
	for _, st := range p.sess.steps {
		if st.skip != "" {
			p.skipped++
			p.report(st, "skipped", st.skip)
			continue
		}
		p.current = st
		p.stepBegan = p.clock()
		got, err := p.send(ctx, peer, st)
		var unanswered *answers.UnansweredError
		switch {
		case errors.As(err, &unanswered) && ctx.Err() == nil:
			// A prompt of an interactive session the recording has no
			// answer for: the session was given up, the replay goes on.
			p.report(st, "differs", unansweredLine(unanswered))
			continue
		case err != nil:
			return err
		}
		if p.sess.Redacted {
			// The recorded answer's credentials are masked: mask the new
			// one's the same way, or every token would differ.
			got = recordings.Redact(got)
		}
		lines := answerDiffs(st.want, got, p.opts)
		switch failure := p.toolFailure(ctx, peer, st, got); {
		case failure != nil:
			p.report(st, "failed", append([]string{failure.Error()}, lines...)...)
		case len(lines) > 0:
			p.report(st, "differs", lines...)
		default:
			p.report(st, "ok")
		}
	}
	p.current = nil
	sent := p.ok + p.differs + p.failed
	failed := ""
	if p.failed > 0 {
		failed = fmt.Sprintf(", %d failed", p.failed)
	}
	p.println(fmt.Sprintf("%d %s sent again: %d ok, %d %s%s, %d skipped", sent, plural.Word(sent, "request", "requests"),
		p.ok, p.differs, plural.Word(p.differs, "differs", "differ"), failed, p.skipped))
	return p.failure(sent)
}

// toolFailure judges the new answer of a tools/call step: a result that
// is a failure (isError, or structuredContent its outputSchema lacks or
// refuses) fails the step, whatever the recording holds.
func (p *Replayer) toolFailure(ctx context.Context, peer Peer, st *replayStep, got []byte) *client.ToolFailure {
	if st.inter != nil || st.method != mcp.MethodToolsCall {
		return nil
	}
	var doc struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(got, &doc) != nil || len(doc.Result) == 0 {
		return nil
	}
	f := peer.ToolFailure(ctx, st.params, doc.Result)
	if f != nil && p.firstFailure == nil {
		p.firstFailure = f
	}
	return f
}

// failure is the replay's outcome in one line, exit 1: the answers that
// differ and the tool results that are failures, the first named.
func (p *Replayer) failure(sent int) error {
	if p.differs == 0 && p.failed == 1 {
		return p.firstFailure
	}
	var parts []string
	if p.differs > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s from the recording", p.differs, plural.Count(sent, "answer differs", "answers differ")))
	}
	if f := p.firstFailure; f != nil {
		line := f.Error()
		if p.failed > 1 {
			line = fmt.Sprintf("%d tool results are failures, the first: %s", p.failed, line)
		}
		parts = append(parts, line)
	}
	if len(parts) == 0 {
		return nil
	}
	return &MismatchError{Summary: strings.Join(parts, "; ")}
}

// send sends one step again and returns its answer as compared: a
// JSON-RPC error answer is an answer too.
func (p *Replayer) send(ctx context.Context, peer Peer, st *replayStep) ([]byte, error) {
	var raw json.RawMessage
	var err error
	if st.inter != nil {
		raw, err = peer.Interact(ctx, st.inter.start, answers.NewPrompts(st.inter.answers, false))
	} else {
		var params any
		if len(st.params) > 0 {
			params = st.params
		}
		raw, err = peer.Call(ctx, st.method, params)
	}
	var rpcErr *client.RPCError
	if errors.As(err, &rpcErr) {
		return answerDocument(nil, rpcErr.Err), nil
	}
	if err != nil {
		return nil, err
	}
	if st.inter != nil {
		return raw, nil
	}
	return answerDocument(raw, nil), nil
}

// report prints a step's line, ok, differs or skipped, and the lines
// under it; it counts the step.
func (p *Replayer) report(st *replayStep, status string, lines ...string) {
	switch status {
	case "ok":
		p.ok++
	case "differs":
		p.differs++
	case "failed":
		p.failed++
	}
	p.record(st, status, lines)
	head := fmt.Sprintf("%-7s %s", status, st.label())
	if status == "skipped" && len(lines) == 1 {
		p.println(head + ": " + lines[0])
		return
	}
	p.println(head)
	for _, l := range lines {
		p.println("  " + l)
	}
}

// println writes one line on stdout, safe to print.
func (p *Replayer) println(s string) {
	fmt.Fprintln(p.out, termtext.SafeLine(s))
}

// label names a step: its method and, when its params name one, the tool,
// prompt or resource.
func (st *replayStep) label() string {
	if st.inter != nil {
		return st.method + " " + termtext.Quote(st.inter.start.ToolName)
	}
	var p struct {
		Name     string `json:"name"`
		URI      string `json:"uri"`
		ToolName string `json:"toolName"`
	}
	_ = json.Unmarshal(st.params, &p)
	for _, what := range []string{p.Name, p.URI, p.ToolName} {
		if what != "" {
			return termtext.OneLine(st.method) + " " + termtext.Quote(what)
		}
	}
	return termtext.OneLine(st.method)
}

// Stopped reports a question the recording holds no answer for that
// stopped the whole replay (err is an *answers.UnansweredError): the step
// in flight differs. It returns the replay's failure, or err itself when no
// step was in flight or err is another failure.
func (p *Replayer) Stopped(err error) error {
	var unanswered *answers.UnansweredError
	if !errors.As(err, &unanswered) || p.current == nil {
		return err
	}
	// The server asked a question of the request in flight that the
	// recording holds no answer for: the answers differ.
	p.report(p.current, "differs", unansweredLine(unanswered))
	return &MismatchError{Summary: fmt.Sprintf("the replay stopped: %v", unanswered)}
}

// unansweredLine says which question the recording had no answer for.
func unansweredLine(e *answers.UnansweredError) string {
	return "the server asked " + e.Method + " " + termtext.Quote(e.Question) + ", which the recording holds no answer for"
}
