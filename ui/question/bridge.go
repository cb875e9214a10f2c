// Package question is the screen of the server's questions: elicitation
// forms and URLs, sampling requests, asked through the Bridge the session
// calls and shown one at a time over whatever screen is open, and the
// editor of the roots roots/list answers with.
package question

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bridge answers the server's questions through the TUI. It
// implements client.ServerRequestHandler: the session engine calls it from
// its own goroutine, the bridge hands the question to the program as a
// message and waits until the user answers it, or until the request's
// context ends (the server cancelled it, the session closed). roots/list
// is answered at once from the roots the user keeps in the UI.
//
// Create it with NewBridge, give it to the session as its Handler
// and to the UI (ui.Config.Questions), and call SetSend with the program's
// Send before the program runs.
type Bridge struct {
	mu    sync.Mutex
	send  func(tea.Msg)
	roots []mcp.Root
}

var _ client.ServerRequestHandler = (*Bridge)(nil)

// NewBridge returns a bridge exposing roots (the --root flags).
func NewBridge(roots []mcp.Root) *Bridge {
	return &Bridge{roots: append([]mcp.Root{}, roots...)}
}

// SetSend sets how questions reach the program (tea.Program.Send).
func (b *Bridge) SetSend(send func(tea.Msg)) {
	b.mu.Lock()
	b.send = send
	b.mu.Unlock()
}

// Roots returns the roots exposed to the server, never nil.
func (b *Bridge) Roots() []mcp.Root {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]mcp.Root{}, b.roots...)
}

// SetRoots replaces the roots roots/list answers with.
func (b *Bridge) SetRoots(roots []mcp.Root) {
	b.mu.Lock()
	b.roots = append([]mcp.Root{}, roots...)
	b.mu.Unlock()
}

// HandleServerRequest answers elicitation/create and sampling/createMessage
// by asking the user, and roots/list from the roots kept in the UI; any
// other method is refused with -32601.
func (b *Bridge) HandleServerRequest(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case mcp.MethodRootsList:
		return mcp.ListRootsResult{Roots: b.Roots()}, nil
	case mcp.MethodElicitationCreate, mcp.MethodSamplingCreateMessage:
	default:
		return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "mcpscope does not answer " + method}
	}
	b.mu.Lock()
	send := b.send
	b.mu.Unlock()
	if send == nil {
		return nil, &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "mcpscope cannot ask the user: the TUI is not running"}
	}
	qctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the UI's watch of this question
	reply := make(chan questionAnswer, 1)
	q := &question{method: method, params: params, ctx: qctx, reply: reply, origin: originText(ctx)}
	go send(AskedMsg{q: q})
	select {
	case a := <-reply:
		return a.result, a.err
	case <-qctx.Done():
		return nil, fmt.Errorf("the %s was not answered: %w", method, ctx.Err())
	}
}

// question is one request from the server waiting for the user.
type question struct {
	method string
	params json.RawMessage
	ctx    context.Context // ends when the server no longer waits
	reply  chan<- questionAnswer
	sent   bool   // the answer went out (UI goroutine only)
	origin string // what it answers: a request id, or an input of an input_required result
}

// questionAnswer is the result of a question, or the error to answer with.
type questionAnswer struct {
	result any
	err    error
}

// answer sends the user's answer, once.
func (q *question) answer(a questionAnswer) {
	if q.sent {
		return
	}
	q.sent = true
	q.reply <- a // buffered: never blocks
}

// Messages of the questions.
type (
	// AskedMsg brings a question from the session to the UI (Ask).
	AskedMsg struct{ q *question }
	// EndedMsg says the server stopped waiting for a question (Ended).
	EndedMsg struct{ q *question }
)

// watchQuestion reports when the server stops waiting for q: its context
// ends once the question is answered too, and then the report is ignored.
func watchQuestion(q *question) tea.Cmd {
	return func() tea.Msg {
		<-q.ctx.Done()
		return EndedMsg{q: q}
	}
}
