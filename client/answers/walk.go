package answers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// scriptCancelReason is the reason interaction.cancel carries when the
// answers file says {cancel: true}.
const scriptCancelReason = "cancelled by the answers file"

// ErrToolNotInteractive says an interactive server refused to start the
// tool with NOT_INTERACTIVE (-32007): a script step degrades to tools/call.
var ErrToolNotInteractive = errors.New("the tool is not interactive")

// Walker walks the interactive sessions of a run (seed 002), answering
// their prompts from an answers file.
type Walker struct {
	// Prompts hands out the answers, across every session of the run.
	Prompts *Prompts
	// Timeout bounds the wait for the server's next message, like a
	// request's; MaxTime bounds a whole session.
	Timeout, MaxTime time.Duration
	// Println prints a line about a session: the server's notes, an answer
	// it refused, progress (nil: nothing is printed).
	Println func(string)
	// Progress, when set, words a session's progress for Println; nil
	// leaves progress unsaid.
	Progress func(mcp.ProgressNotificationParams) string
}

// WalkFailure is why a session was given up, of a Kind the caller maps to
// its exit status; the server was told with interaction.cancel when it
// still could be.
type WalkFailure struct {
	Kind WalkFailureKind
	Err  error
}

// WalkFailureKind says whose fault a failed session is.
type WalkFailureKind int

// Kinds of WalkFailure.
const (
	// WalkConnection: the session failed or ended before it completed.
	WalkConnection WalkFailureKind = iota
	// WalkTimeout: the server was quiet for Timeout, or the session ran
	// past MaxTime.
	WalkTimeout
	// WalkInput: an answer of the file cannot be sent (a file answer that
	// cannot be read).
	WalkInput
)

// Error is the reason.
func (f *WalkFailure) Error() string { return f.Err.Error() }

// Unwrap returns the reason.
func (f *WalkFailure) Unwrap() error { return f.Err }

// walk is one interactive session a tool step runs.
type walk struct {
	w       *Walker
	it      *client.Interaction
	refused bool // the last answer was refused; the server should ask again
}

// Interact starts an interactive session of s with start and answers its
// prompts until interaction.complete, returning the Outcome (or the
// Cancelled a cancel answer made) as Line renders it. A tool the server
// does not run interactively is ErrToolNotInteractive. Waiting for the
// server's next message is bounded by Timeout, like a request, and the
// whole session by MaxTime.
func (w *Walker) Interact(ctx context.Context, s *client.Session, start mcp.InteractionStartParams) (json.RawMessage, error) {
	it, err := s.StartInteraction(ctx, start)
	var rpcErr *client.RPCError
	if errors.As(err, &rpcErr) && rpcErr.Err.Code == mcp.CodeNotInteractive {
		return nil, fmt.Errorf("%w: %w", ErrToolNotInteractive, err)
	}
	if err != nil {
		return nil, err
	}
	wk := &walk{w: w, it: it}
	idle := time.NewTimer(w.Timeout)
	defer idle.Stop()
	hard := time.NewTimer(w.MaxTime)
	defer hard.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-idle.C:
			wk.abandon(ctx, "mcpscope script timed out")
			return nil, wk.idleError()
		case <-hard.C:
			wk.abandon(ctx, "mcpscope script reached its max time")
			return nil, &WalkFailure{Kind: WalkTimeout, Err: fmt.Errorf("interaction %s of tool %s reached its max time of %s, whatever the server sent; cancelled it",
				wk.name(), termtext.Quote(it.ToolName()), w.MaxTime)}
		case ev, ok := <-it.Events():
			if !ok {
				return nil, wk.ended(ctx)
			}
			out, err := wk.handle(ctx, ev)
			if out != nil || err != nil {
				return out, err
			}
			idle.Reset(w.Timeout)
		}
	}
}

// println prints a line about the session, when the walker prints.
func (w *walk) println(line string) {
	if w.w.Println != nil {
		w.w.Println(line)
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
		out := Outcome{SessionID: w.it.ID()}
		if c := ev.Complete; c != nil {
			out.Result, out.Summary = c.Result, c.Summary
		}
		return Line(out)
	case client.EventIllegal:
		w.abandon(ctx, "the server broke the session's states")
		what := orDefault(ev.Message, "it moved from "+stateName(ev.From)+" to "+stateName(ev.To))
		return nil, &client.ProtocolError{Msg: fmt.Sprintf("the server broke the states of interaction %s: %s", w.name(), termtext.OneLine(what))}
	case client.EventError:
		err := ev.Err
		if err == nil {
			err = errors.New(orDefault(termtext.OneLine(ev.Message), "the session failed"))
		}
		return nil, &WalkFailure{Kind: WalkConnection, Err: fmt.Errorf("interaction %s of tool %s failed: %w", w.name(), termtext.Quote(w.it.ToolName()), err)}
	}
	return nil, nil
}

// answer answers one prompt with the next answer of the file. A refused
// answer is reported; the server sends the prompt again and the next answer
// goes to it.
func (w *walk) answer(ctx context.Context, p *mcp.InteractionPrompt) (json.RawMessage, error) {
	ans, err := w.w.Prompts.Take(p)
	if err != nil {
		w.abandon(ctx, "mcpscope script has no answer left")
		return nil, err
	}
	if ans.Cancel {
		if err := w.it.Cancel(ctx, scriptCancelReason); err != nil {
			return nil, err
		}
		return Line(Cancelled{SessionID: w.it.ID(), Cancelled: true})
	}
	value, err := ans.Respond()
	if err != nil {
		w.abandon(ctx, "mcpscope script could not read an answer")
		return nil, &WalkFailure{Kind: WalkInput, Err: err}
	}
	res, err := w.it.Respond(ctx, value)
	if err != nil {
		return nil, err
	}
	w.refused = !res.Accepted
	if !res.Accepted {
		w.println("warning: the server refused the answer " + ans.Describe() + " to " + termtext.Quote(p.Message) + refusalReason(res.Validation))
	}
	return nil, nil
}

// idleError is the timeout of a session whose server went quiet.
func (w *walk) idleError() error {
	what := "sent nothing"
	if w.refused {
		what = "refused the last answer and did not ask again"
	}
	return &WalkFailure{Kind: WalkTimeout, Err: fmt.Errorf("interaction %s of tool %s: the server %s for %s; cancelled it",
		w.name(), termtext.Quote(w.it.ToolName()), what, w.w.Timeout)}
}

// refusalReason renders why an answer was refused: ": error; suggestion".
func refusalReason(v *mcp.InteractionValidation) string {
	if v == nil || v.Error == "" && v.Suggestion == "" {
		return ""
	}
	s := ": " + termtext.OneLine(orDefault(v.Error, "invalid"))
	if v.Suggestion != "" {
		s += "; " + termtext.OneLine(v.Suggestion)
	}
	return s
}

// note reports the message of an interaction.continue on stderr, with the
// session's expiry when the server announced one (a timeout warning).
func (w *walk) note(ev client.InteractionEvent) {
	if ev.Message == "" {
		return
	}
	line := "interaction " + w.name() + ": " + termtext.OneLine(ev.Message)
	if !ev.ExpiresAt.IsZero() && ev.Prompt == nil {
		line += " (the session expires at " + ev.ExpiresAt.Local().Format("15:04:05") + ")"
	}
	w.println(line)
}

// progress prints an interaction's progress when the walker words it.
func (w *walk) progress(p *mcp.InteractionProgress) {
	if p == nil || w.w.Progress == nil {
		return
	}
	n := mcp.ProgressNotificationParams{Progress: p.Current, Message: p.Message}
	if p.Total > 0 {
		total := p.Total
		n.Total = &total
	}
	w.println(w.w.Progress(n))
}

// ended explains why the events ended before interaction.complete.
func (w *walk) ended(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	state := w.it.State()
	return &WalkFailure{Kind: WalkConnection, Err: fmt.Errorf("interaction %s of tool %s ended in state %s before it completed",
		w.name(), termtext.Quote(w.it.ToolName()), stateName(state))}
}

// abandon tells the server, as well as it can, that the script gives the
// interaction up; the run fails for another reason already.
func (w *walk) abandon(ctx context.Context, reason string) {
	if w.it.State().Terminal() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.w.Timeout)
	defer cancel()
	_ = w.it.Cancel(ctx, reason)
}

// name returns the session's id for messages, safe to print: a stateless
// server's signed token is named by the id inside it.
func (w *walk) name() string {
	id := w.it.ID()
	if tok, ok := mcp.DecodeSessionToken(id); ok && tok.SessionID != "" {
		return termtext.OneLine(tok.SessionID)
	}
	return termtext.OneLine(id)
}

// stateName renders a state for messages, safe to print, "(none)" for the
// empty one.
func stateName(s mcp.InteractionState) string {
	if s == "" {
		return "(none)"
	}
	return termtext.OneLine(string(s))
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
