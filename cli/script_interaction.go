package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto"
)

// scriptCancelReason is the reason interaction.cancel carries when the
// answers file says {cancel: true}.
const scriptCancelReason = "cancelled by the answers file"

// errToolNotInteractive says an interactive server refused to start the
// tool with NOT_INTERACTIVE (-32007): the step degrades to tools/call.
var errToolNotInteractive = errors.New("the tool is not interactive")

// isInteractive asks the server once per run whether it runs interactive
// sessions; a server that does not know the question is not interactive.
func (s *script) isInteractive(ctx context.Context, r *run) (bool, error) {
	if !s.discovered {
		caps, err := r.session.InteractiveCapabilities(ctx)
		if err != nil {
			return false, err
		}
		s.discovered, s.interactive = true, caps.Interactive
	}
	return s.interactive, nil
}

// walk is one interactive session a tool step runs.
type walk struct {
	s       *script
	r       *run
	it      *client.Interaction
	refused bool // the last answer was refused; the server should ask again
}

// interact runs a tool step as an interactive session: interaction.start,
// then each prompt answered from the file, until interaction.complete. A
// tool the server does not run interactively is errToolNotInteractive.
// Waiting for the server's next message is bounded by --timeout, like a
// request, and the whole walk by --max-time.
func (s *script) interact(ctx context.Context, r *run, st answers.Step) (json.RawMessage, error) {
	return s.interactWith(ctx, r, proto.InteractionStartParams{ToolName: st.Tool, InitialParams: st.ToolArguments()})
}

// interactWith starts an interactive session with start and answers its prompts
// from s.prompts until it ends, as interact says.
func (s *script) interactWith(ctx context.Context, r *run, start proto.InteractionStartParams) (json.RawMessage, error) {
	it, err := r.session.StartInteraction(ctx, start)
	var rpcErr *client.RPCError
	if errors.As(err, &rpcErr) && rpcErr.Err.Code == proto.CodeNotInteractive {
		return nil, fmt.Errorf("%w: %w", errToolNotInteractive, err)
	}
	if err != nil {
		return nil, err
	}
	w := &walk{s: s, r: r, it: it}
	idle := time.NewTimer(r.flags.timeout)
	defer idle.Stop()
	hard := time.NewTimer(r.flags.maxTime)
	defer hard.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-idle.C:
			w.abandon(ctx, "mcpscope script timed out")
			return nil, w.idleError()
		case <-hard.C:
			w.abandon(ctx, "mcpscope script reached its max time")
			return nil, withExit(ExitTimeout, fmt.Errorf("interaction %s of tool %s reached its max time of %s, whatever the server sent; cancelled it",
				w.name(), quote(w.it.ToolName()), r.flags.maxTime))
		case ev, ok := <-it.Events():
			if !ok {
				return nil, w.ended(ctx)
			}
			out, err := w.handle(ctx, ev)
			if out != nil || err != nil {
				return out, err
			}
			idle.Reset(r.flags.timeout)
		}
	}
}

// handle acts on one event; a non-nil result or error ends the walk.
func (w *walk) handle(ctx context.Context, ev client.InteractionEvent) (json.RawMessage, error) {
	w.progress(ev.Progress)
	switch ev.Kind {
	case client.EventPrompt:
		if ev.Prompt == nil {
			return nil, nil
		}
		return w.answer(ctx, ev.Prompt)
	case client.EventContinue:
		w.note(ev)
		if ev.Prompt != nil { // a nextPrompt is answered like any prompt
			return w.answer(ctx, ev.Prompt)
		}
		return nil, nil
	case client.EventComplete:
		out := answers.Outcome{SessionID: w.it.ID()}
		if c := ev.Complete; c != nil {
			out.Result, out.Summary = c.Result, c.Summary
		}
		return answers.Line(out)
	case client.EventIllegal:
		w.abandon(ctx, "the server broke the session's states")
		what := orDefault(ev.Message, "it moved from "+stateName(ev.From)+" to "+stateName(ev.To))
		return nil, &client.ProtocolError{Msg: fmt.Sprintf("the server broke the states of interaction %s: %s", w.name(), oneLine(what))}
	case client.EventError:
		err := ev.Err
		if err == nil {
			err = errors.New(orDefault(oneLine(ev.Message), "the session failed"))
		}
		return nil, withExit(ExitConnection, fmt.Errorf("interaction %s of tool %s failed: %w", w.name(), quote(w.it.ToolName()), err))
	}
	return nil, nil
}

// answer answers one prompt with the next answer of the file. A refused
// answer is reported; the server sends the prompt again and the next answer
// goes to it.
func (w *walk) answer(ctx context.Context, p *proto.InteractionPrompt) (json.RawMessage, error) {
	ans, err := w.s.prompts.Take(p)
	if err != nil {
		w.abandon(ctx, "mcpscope script has no answer left")
		return nil, err
	}
	if ans.Cancel {
		if err := w.it.Cancel(ctx, scriptCancelReason); err != nil {
			return nil, err
		}
		return answers.Line(answers.Cancelled{SessionID: w.it.ID(), Cancelled: true})
	}
	value, err := ans.Respond()
	if err != nil {
		w.abandon(ctx, "mcpscope script could not read an answer")
		return nil, &UsageError{Err: err}
	}
	res, err := w.it.Respond(ctx, value)
	if err != nil {
		return nil, err
	}
	w.refused = !res.Accepted
	if !res.Accepted {
		w.r.io.diag.Println("warning: the server refused the answer " + ans.Describe() + " to " + quote(p.Message) + refusalReason(res.Validation))
	}
	return nil, nil
}

// idleError is the timeout of a session whose server went quiet.
func (w *walk) idleError() error {
	what := "sent nothing"
	if w.refused {
		what = "refused the last answer and did not ask again"
	}
	return withExit(ExitTimeout, fmt.Errorf("interaction %s of tool %s: the server %s for %s; cancelled it",
		w.name(), quote(w.it.ToolName()), what, w.r.flags.timeout))
}

// refusalReason renders why an answer was refused: ": error; suggestion".
func refusalReason(v *proto.InteractionValidation) string {
	if v == nil || v.Error == "" && v.Suggestion == "" {
		return ""
	}
	s := ": " + oneLine(orDefault(v.Error, "invalid"))
	if v.Suggestion != "" {
		s += "; " + oneLine(v.Suggestion)
	}
	return s
}

// note reports the message of an interaction.continue on stderr, with the
// session's expiry when the server announced one (a timeout warning).
func (w *walk) note(ev client.InteractionEvent) {
	if ev.Message == "" {
		return
	}
	line := "interaction " + w.name() + ": " + oneLine(ev.Message)
	if !ev.ExpiresAt.IsZero() && ev.Prompt == nil {
		line += " (the session expires at " + ev.ExpiresAt.Local().Format("15:04:05") + ")"
	}
	w.r.io.diag.Println(line)
}

// progress prints an interaction's progress with --progress.
func (w *walk) progress(p *proto.InteractionProgress) {
	if p == nil || !w.r.flags.progress {
		return
	}
	n := proto.ProgressNotificationParams{Progress: p.Current, Message: p.Message}
	if p.Total > 0 {
		total := p.Total
		n.Total = &total
	}
	w.r.io.diag.Println(formatProgress(n))
}

// ended explains why the events ended before interaction.complete.
func (w *walk) ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	state := w.it.State()
	return withExit(ExitConnection, fmt.Errorf("interaction %s of tool %s ended in state %s before it completed",
		w.name(), quote(w.it.ToolName()), stateName(state)))
}

// abandon tells the server, as well as it can, that the script gives the
// interaction up; the run fails for another reason already.
func (w *walk) abandon(ctx context.Context, reason string) {
	if w.it.State().Terminal() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.r.flags.timeout)
	defer cancel()
	_ = w.it.Cancel(ctx, reason)
}

// name returns the session's id for messages, safe to print: a stateless
// server's signed token is named by the id inside it.
func (w *walk) name() string {
	id := w.it.ID()
	if tok, ok := proto.DecodeSessionToken(id); ok && tok.SessionID != "" {
		return oneLine(tok.SessionID)
	}
	return oneLine(id)
}

// stateName renders a state for messages, safe to print, "(none)" for the
// empty one.
func stateName(s proto.InteractionState) string {
	if s == "" {
		return "(none)"
	}
	return oneLine(string(s))
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
