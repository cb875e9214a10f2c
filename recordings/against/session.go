package against

import (
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
)

// Session is what replay --against takes from a recording: the client's
// requests in the order they were sent, each with the answer recorded for
// it, and the answers the client gave to the server's questions.
type Session struct {
	steps []*replayStep
	// Answers are the client's recorded answers to the server's questions,
	// per kind, in the order the questions came.
	Answers answers.File
	// Protocol is the protocol version the session settled on.
	Protocol string
	// Warnings say what of the recording could not be read.
	Warnings []string
	// Redacted says credentials were masked when it was recorded.
	Redacted bool
}

// replayStep is one request the replay sends again, or one interactive
// session (interaction.start and the answers to its prompts).
type replayStep struct {
	method string
	params json.RawMessage // as recorded, less the _meta members the engine adds itself
	want   []byte          // the recorded answer as compared: {"result":…} or {"error":…}, or the interaction's outcome
	inter  *recordedInteraction
	skip   string             // why the step is not sent again
	input  *mcp.InputRequired // the last round asked for input: the next request of the method with inputResponses is its retry
}

// recordedInteraction is an interactive session the recording started.
type recordedInteraction struct {
	start   mcp.InteractionStartParams
	answers []answers.Interaction // interaction.respond values and interaction.cancel, in order
	step    *replayStep           // the step that started it: its outcome is the step's answer
	ended   bool
}

// sessionReader builds a Session from a recording's frames.
type sessionReader struct {
	s         Session
	sent      map[string]*replayStep          // the client's request ids still unanswered
	questions map[string]string               // the server's question ids still unanswered → method
	sessions  map[string]*recordedInteraction // by client.InteractionKey
	retryOf   map[string]*replayStep          // method → the call whose last round asked for input
}

// Read reads the recording at path. A recording cut short gives
// what it holds before the cut; a corrupt line is skipped; both are said in
// warnings, the first recordings.MaxCorruptNamed corrupt lines by name.
func Read(path string) (*Session, error) {
	rd, err := recordings.Open(path)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	b := &sessionReader{sent: map[string]*replayStep{}, questions: map[string]string{},
		sessions: map[string]*recordedInteraction{}, retryOf: map[string]*replayStep{}}
	b.s.Redacted = rd.Header().Redaction != recordings.RedactNone
	d, err := recordings.Walk(rd, func(rec *recordings.Record) error {
		b.add(rec)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b.s.Warnings = d.Warnings("")
	return b.done(), nil
}

// add takes one record into the session.
func (b *sessionReader) add(rec *recordings.Record) {
	if rec.Kind == recordings.RecLink && rec.Protocol != "" {
		b.s.Protocol = rec.Protocol
	}
	f := rec.Frame
	if rec.Kind != recordings.RecFrame || f == nil || f.Chan.Kind != capture.Control || f.Msg == nil || f.Msg.Violation != nil {
		return
	}
	m := f.Msg
	switch out := f.Dir == capture.Out; {
	case out && m.Kind() == jsonrpc.KindRequest:
		b.request(m)
	case out && m.IsResponse():
		b.answered(m)
	case !out && m.IsResponse():
		b.response(m)
	case !out && m.Kind() == jsonrpc.KindRequest:
		b.question(m)
	}
}

// request takes a request of the client.
func (b *sessionReader) request(m *jsonrpc.Message) {
	switch m.Method {
	case mcp.MethodInitialize, mcp.MethodDiscover:
		return // the new session makes its own handshake
	case mcp.MethodToolsList:
		if client.IsOwnRequest(m.Params) {
			return // the new session learns the outputSchemas itself
		}
	case mcp.MethodInteractionRespond, mcp.MethodInteractionCancel, mcp.MethodInteractionGetState:
		if b.turn(m) {
			return
		}
	}
	if st := b.retryOf[m.Method]; st != nil && hasMember(m.Params, "inputResponses") {
		b.retry(st, m)
		return
	}
	st := &replayStep{method: m.Method, params: withoutEngineMeta(m.Params)}
	switch m.Method {
	case mcp.MethodSubscriptionsListen:
		st.skip = "a subscription is not sent again"
	case mcp.MethodInteractionRespond, mcp.MethodInteractionCancel, mcp.MethodInteractionGetState:
		st.skip = "its interactive session did not start in the recording"
	}
	b.sent[m.ID.Key()] = st
	b.s.steps = append(b.s.steps, st)
}

// turn takes a request of an interactive session the recording started:
// an answer to a prompt, a cancellation or a state query. It reports
// whether the session was one.
func (b *sessionReader) turn(m *jsonrpc.Message) bool {
	var p struct {
		SessionID string                  `json:"sessionId"`
		Response  mcp.InteractionResponse `json:"response"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return false
	}
	it := b.sessions[client.InteractionKey(p.SessionID)]
	if it == nil {
		return false
	}
	switch m.Method {
	case mcp.MethodInteractionRespond:
		it.answers = append(it.answers, answers.Interaction{Value: p.Response.Value})
	case mcp.MethodInteractionCancel:
		it.answers = append(it.answers, answers.Interaction{Cancel: true})
		b.ended(it, answers.Cancelled{SessionID: p.SessionID, Cancelled: true})
	}
	return true
}

// retry takes a modern-era retry of st: its inputResponses are the
// client's answers to the input the last round asked for.
func (b *sessionReader) retry(st *replayStep, m *jsonrpc.Message) {
	var p mcp.InputRetry
	_ = json.Unmarshal(m.Params, &p)
	for _, key := range st.input.InputKeys() {
		if raw, ok := p.InputResponses[key]; ok {
			b.s.Answers.AddRecorded(st.input.InputRequests[key].Method, raw)
		}
	}
	st.input = nil
	delete(b.retryOf, st.method)
	b.sent[m.ID.Key()] = st
}

// response takes the server's answer to a request of the client.
func (b *sessionReader) response(m *jsonrpc.Message) {
	if m.ID == nil { // an error of id null names no request
		return
	}
	key := m.ID.Key()
	st := b.sent[key]
	if st == nil {
		return
	}
	delete(b.sent, key)
	st.want = answerDocument(m.Result, m.Error)
	if m.Error != nil {
		return
	}
	if ir, err := mcp.DecodeInputRequired(m.Result); err == nil && ir.NeedsInput() {
		st.input = &ir
		b.retryOf[st.method] = st
		return
	}
	if st.method != mcp.MethodInteractionStart {
		return
	}
	var res mcp.InteractionStartResult
	var start mcp.InteractionStartParams
	if json.Unmarshal(m.Result, &res) != nil || res.SessionID == "" || json.Unmarshal(st.params, &start) != nil {
		return
	}
	st.inter = &recordedInteraction{start: start, step: st}
	st.want = nil // until the session ends
	b.sessions[client.InteractionKey(res.SessionID)] = st.inter
}

// ended sets the outcome of an interactive session, the first time.
func (b *sessionReader) ended(it *recordedInteraction, outcome any) {
	if it.ended {
		return
	}
	it.ended = true
	line, err := answers.Line(outcome)
	if err == nil {
		it.step.want = line
	}
}

// question takes a request of the server.
func (b *sessionReader) question(m *jsonrpc.Message) {
	switch m.Method {
	case mcp.MethodElicitationCreate, mcp.MethodSamplingCreateMessage, mcp.MethodRootsList:
		b.questions[m.ID.Key()] = m.Method
	case mcp.MethodInteractionComplete:
		var p mcp.InteractionCompleteParams
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		if it := b.sessions[client.InteractionKey(p.SessionID)]; it != nil {
			b.ended(it, answers.Outcome{SessionID: p.SessionID, Result: p.Result, Summary: p.Summary})
		}
	}
}

// answered takes the client's answer to a question of the server.
func (b *sessionReader) answered(m *jsonrpc.Message) {
	if m.ID == nil { // an error of id null names no question
		return
	}
	key := m.ID.Key()
	method, ok := b.questions[key]
	if !ok {
		return
	}
	delete(b.questions, key)
	if m.Error == nil {
		b.s.Answers.AddRecorded(method, m.Result)
	}
}

// done says why each step that cannot be sent again is skipped.
func (b *sessionReader) done() *Session {
	for _, st := range b.s.steps {
		switch {
		case st.skip != "":
		case st.inter != nil && st.want == nil:
			st.skip = "its interactive session did not end in the recording"
		case st.input != nil:
			st.skip = "the recording ends while it waits for input"
		case st.want == nil:
			st.skip = "no answer was recorded"
		}
	}
	return &b.s
}

// hasMember reports whether params is an object with the member name.
func hasMember(params json.RawMessage, name string) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(params, &obj) != nil {
		return false
	}
	_, ok := obj[name]
	return ok
}

// Sendable reports whether one step at least can be sent again.
func (s *Session) Sendable() bool {
	for _, st := range s.steps {
		if st.skip == "" {
			return true
		}
	}
	return false
}

// SendsMasked reports whether a request to send again holds a value the
// recording masked.
func (s *Session) SendsMasked() bool {
	for _, st := range s.steps {
		if recordings.HoldsMask(st.params) {
			return true
		}
	}
	return false
}
