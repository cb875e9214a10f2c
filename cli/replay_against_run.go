package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/jsondiff"
	"github.com/mcpscope/mcpscope/internal/plural"
	"github.com/mcpscope/mcpscope/recordings"
)

// replayer sends a recording's requests again over a connected session
// and reports, request by request, how the answers compare.
type replayer struct {
	sess    *recordedSession
	opts    jsondiff.Options
	out     io.Writer
	current *replayStep // the step in flight

	ok, differs, skipped int
}

// run is the work of the replay: every step in order, then the totals.
// Answers that differ make it fail with exit 1 once every step is done.
func (p *replayer) run(ctx context.Context, r *run) error {
	for _, st := range p.sess.steps {
		if st.skip != "" {
			p.skipped++
			p.report(st, "skipped", st.skip)
			continue
		}
		p.current = st
		got, err := p.send(ctx, r, st)
		var unanswered *UnansweredError
		switch {
		case errors.As(err, &unanswered) && ctx.Err() == nil:
			// A prompt of an interactive session the recording has no
			// answer for: the session was given up, the replay goes on.
			p.report(st, "differs", unansweredLine(unanswered))
			continue
		case err != nil:
			return err
		}
		if p.sess.redacted {
			// The recorded answer's credentials are masked: mask the new
			// one's the same way, or every token would differ.
			got = recordings.Redact(got)
		}
		if lines := answerDiffs(st.want, got, p.opts); len(lines) > 0 {
			p.report(st, "differs", lines...)
		} else {
			p.report(st, "ok")
		}
	}
	p.current = nil
	sent := p.ok + p.differs
	p.println(fmt.Sprintf("%d %s sent again: %d ok, %d %s, %d skipped", sent, plural.Word(sent, "request", "requests"),
		p.ok, p.differs, plural.Word(p.differs, "differs", "differ"), p.skipped))
	if p.differs > 0 {
		return withExit(ExitRPCError, fmt.Errorf("%d of %s from the recording", p.differs, plural.Count(sent, "answer differs", "answers differ")))
	}
	return nil
}

// send sends one step again and returns its answer as compared: a
// JSON-RPC error answer is an answer too.
func (p *replayer) send(ctx context.Context, r *run, st *replayStep) ([]byte, error) {
	var raw json.RawMessage
	var err error
	if st.inter != nil {
		s := &script{prompts: promptAnswers{list: st.inter.answers}}
		raw, err = s.interactWith(ctx, r, st.inter.start)
	} else {
		var params any
		if len(st.params) > 0 {
			params = st.params
		}
		raw, err = r.call(ctx, st.method, params)
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
func (p *replayer) report(st *replayStep, status string, lines ...string) {
	switch status {
	case "ok":
		p.ok++
	case "differs":
		p.differs++
	}
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
func (p *replayer) println(s string) {
	fmt.Fprintln(p.out, safeLine(s))
}

// label names a step: its method and, when its params name one, the tool,
// prompt or resource.
func (st *replayStep) label() string {
	if st.inter != nil {
		return st.method + " " + quote(st.inter.start.ToolName)
	}
	var p struct {
		Name     string `json:"name"`
		URI      string `json:"uri"`
		ToolName string `json:"toolName"`
	}
	_ = json.Unmarshal(st.params, &p)
	for _, what := range []string{p.Name, p.URI, p.ToolName} {
		if what != "" {
			return oneLine(st.method) + " " + quote(what)
		}
	}
	return oneLine(st.method)
}
