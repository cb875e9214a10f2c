package answers

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Answerer answers the server's questions (elicitation, sampling, roots)
// from an answers file, in order of arrival per kind. It implements
// client.ServerRequestHandler. When a question finds no answer left, it
// replies with an error and reports the failure through the fail callback,
// which stops the run.
type Answerer struct {
	mu      sync.Mutex
	answers File
	roots   []mcp.Root
	used    map[string]int // answers consumed, per method
	fail    func(error)
	noFile  bool // no answers file was given: a question says how to answer
	repeat  bool // past the last answer of a kind, start again at its first
}

// Repeat makes the answers of each kind start again at the first once the
// last was given, so that a call repeated many times (bench) is answered
// every time: the n-th question of a kind gets answer n mod the answers
// of that kind.
func (a *Answerer) Repeat() {
	a.mu.Lock()
	a.repeat = true
	a.mu.Unlock()
}

// NewAnswerer builds an Answerer. a is nil when no answers file was given;
// roots are the roots reported to roots/list (the file's and the command
// line's); fail is called once per unanswered question with its
// *UnansweredError.
func NewAnswerer(a *File, roots []mcp.Root, fail func(error)) *Answerer {
	noFile := a == nil
	if a == nil {
		a = &File{}
	}
	if fail == nil {
		fail = func(error) {}
	}
	return &Answerer{answers: *a, roots: roots, used: map[string]int{}, fail: fail, noFile: noFile}
}

// HandleServerRequest answers one request from the server. A returned
// *jsonrpc.Error is sent to the server as the error response.
func (a *Answerer) HandleServerRequest(_ context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case mcp.MethodElicitationCreate:
		return a.elicit(params)
	case mcp.MethodSamplingCreateMessage:
		return a.sample(params)
	case mcp.MethodRootsList:
		return mcp.ListRootsResult{Roots: append([]mcp.Root{}, a.roots...)}, nil
	case mcp.MethodPing:
		return mcp.EmptyObject, nil
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "mcpscope does not answer " + method}
}

// take returns the index of the next answer of a kind, or -1 when none is left.
func (a *Answerer) take(method string, available int) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.used[method]
	if a.repeat && available > 0 {
		i %= available
	}
	if i >= available {
		return -1
	}
	a.used[method] = i + 1
	return i
}

// noAnswer reports an unanswered question and builds the error sent back.
func (a *Answerer) noAnswer(method, question string) error {
	a.fail(noAnswerLeft(method, question, a.noFile))
	if a.noFile {
		return &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "mcpscope runs without an answers file: it cannot answer " + method}
	}
	return &jsonrpc.Error{Code: mcp.CodeInternalError, Message: "mcpscope has no scripted answer left for " + method}
}

// noAnswerLeft is the failure of a run whose answers file has no answer
// left for a question of method, or that was given no answers file at all
// (noFile), naming the question.
func noAnswerLeft(method, question string, noFile bool) error {
	return &UnansweredError{Method: method, Question: question, NoAnswersFile: noFile}
}

// UnansweredError says the server asked a question (Method, named by
// Question) that the answers have no answer left for, or that needs an
// answer though no answers file was given (NoAnswersFile).
type UnansweredError struct {
	Method        string
	Question      string
	NoAnswersFile bool
}

// Error names the question and what is missing to answer it.
func (e *UnansweredError) Error() string {
	if e.NoAnswersFile {
		return fmt.Sprintf("the server asked %s %s: pass --answers FILE or run the TUI", e.Method, termtext.Quote(e.Question))
	}
	return fmt.Sprintf("no answer left for %s %s", e.Method, termtext.Quote(e.Question))
}

// elicit answers elicitation/create with the next elicitation answer.
func (a *Answerer) elicit(params json.RawMessage) (any, error) {
	var p mcp.ElicitRequestParams
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &jsonrpc.Error{Code: mcp.CodeInvalidParams, Message: "elicitation/create params: " + err.Error()}
		}
	}
	i := a.take(mcp.MethodElicitationCreate, len(a.answers.Elicitation))
	if i < 0 {
		return nil, a.noAnswer(mcp.MethodElicitationCreate, p.Message)
	}
	ans := a.answers.Elicitation[i]
	res := mcp.ElicitResult{Action: ans.Action}
	if res.Action == "" {
		res.Action = mcp.ElicitActionAccept
	}
	if res.Action != mcp.ElicitActionAccept || p.EffectiveMode() != mcp.ElicitModeForm {
		return res, nil
	}
	res.Content = withSchemaDefaults(ans.Content, p.RequestedSchema)
	return res, nil
}

// withSchemaDefaults returns content plus, for each property of the
// requested schema that content lacks, the property's default. A schema
// that cannot be read adds nothing.
func withSchemaDefaults(content map[string]any, schema json.RawMessage) map[string]any {
	out := make(map[string]any, len(content))
	for k, v := range content {
		out[k] = v
	}
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, prop := range s.Properties {
		if _, ok := out[name]; ok {
			continue
		}
		var p struct {
			Default json.RawMessage `json:"default"`
		}
		if json.Unmarshal(prop, &p) == nil && len(p.Default) > 0 {
			out[name] = p.Default
		}
	}
	return out
}

// sample answers sampling/createMessage with the next sampling answer.
func (a *Answerer) sample(params json.RawMessage) (any, error) {
	var p mcp.CreateMessageParams
	if len(params) > 0 {
		// A malformed request is still answered; only the question's name suffers.
		_ = json.Unmarshal(params, &p)
	}
	i := a.take(mcp.MethodSamplingCreateMessage, len(a.answers.Sampling))
	if i < 0 {
		return nil, a.noAnswer(mcp.MethodSamplingCreateMessage, samplingQuestion(p))
	}
	ans := a.answers.Sampling[i]
	res := mcp.CreateMessageResult{Role: "assistant", Model: ans.Model, StopReason: ans.StopReason}
	if res.Model == "" {
		res.Model = "mcpscope"
	}
	if res.StopReason == "" {
		res.StopReason = "endTurn"
	}
	res.Content, _ = json.Marshal(map[string]string{"type": "text", "text": ans.Text})
	return res, nil
}

// samplingQuestion names a sampling request by the text of its last
// message, or its system prompt.
func samplingQuestion(p mcp.CreateMessageParams) string {
	for i := len(p.Messages) - 1; i >= 0; i-- {
		if t := contentText(p.Messages[i].Content); t != "" {
			return termtext.Ellipsis(t, 80)
		}
	}
	return termtext.Ellipsis(p.SystemPrompt, 80)
}

// contentBlock is the part of a content block a question's name needs.
type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// contentText returns the text of a content block or of the first text
// block of an array of them.
func contentText(raw json.RawMessage) string {
	var one contentBlock
	if json.Unmarshal(raw, &one) == nil && one.Type == "text" {
		return one.Text
	}
	var many []contentBlock
	if json.Unmarshal(raw, &many) == nil {
		for _, c := range many {
			if c.Type == "text" && c.Text != "" {
				return c.Text
			}
		}
	}
	return ""
}
