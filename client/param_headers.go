package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// InvalidToolHeadersError says a tool's x-mcp-header annotations break the
// rules of the 2026-07-28 revision (a name that is not an HTTP token or is
// used twice, a parameter that is not a string, integer or boolean, or one
// not reached through "properties" alone), so a conforming Streamable HTTP
// client does not call it. A tools/call refused for it was not sent.
type InvalidToolHeadersError struct {
	Tool   string // the tool's name, as the server sent it
	Reason error  // what is wrong with the annotations
}

func (e *InvalidToolHeadersError) Error() string {
	return fmt.Sprintf("the tool %q declares invalid x-mcp-header annotations (%v), so a conforming client does not call it", e.Tool, e.Reason)
}

// Unwrap returns what is wrong with the annotations.
func (e *InvalidToolHeadersError) Unwrap() error { return e.Reason }

// ParamHeader is one argument of a tools/call that its tool annotates with
// x-mcp-header: the transport sends it as the header Mcp-Param-{Name},
// encoding Value as its binding asks.
type ParamHeader struct {
	Name  string // the annotation
	Value string // the argument, as text
}

// paramHeadersKey keys the ParamHeaders of a request in its Send context.
type paramHeadersKey struct{}

// withParamHeaders hands ph to the transport with the request sent under
// ctx.
func withParamHeaders(ctx context.Context, ph []ParamHeader) context.Context {
	if len(ph) == 0 {
		return ctx
	}
	return context.WithValue(ctx, paramHeadersKey{}, ph)
}

// ParamHeadersOf returns the Mcp-Param headers the engine asks the
// request sent under ctx to carry (Traits.MirrorsParams), or nil.
func ParamHeadersOf(ctx context.Context) []ParamHeader {
	ph, _ := ctx.Value(paramHeadersKey{}).([]ParamHeader)
	return ph
}

// toolHeaders is what the engine learned of one tool's annotations: its
// bindings, or why they are invalid.
type toolHeaders struct {
	bindings []paramBinding
	invalid  error
	refused  bool // a call was refused once; the next one goes out
}

// annotations are the x-mcp-header annotations the engine learned from
// the server's tools/list answers, and the tools the user insisted on.
type annotations struct {
	mu     sync.Mutex
	byTool map[string]*toolHeaders // nil until a tools/list answer was read
	// listed is nil until the engine was asked for the annotations, and
	// closed once they are known: listed by the caller or by the engine on
	// its own, or left unknown when its listing failed.
	listed   chan struct{}
	insisted map[string]bool
}

// learn reads the x-mcp-header annotations of a tools/list result.
func (a *annotations) learn(result json.RawMessage) {
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &list) != nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byTool == nil {
		a.byTool = make(map[string]*toolHeaders)
	}
	for _, tool := range list.Tools {
		b, err := scanBindings(tool.InputSchema)
		a.byTool[tool.Name] = &toolHeaders{bindings: b, invalid: err}
	}
}

// listing reports whether the caller is the first to need the
// annotations with no listing read yet, and so lists the tools on the
// engine's behalf, once, then calls doneListing; it returns the channel
// closed once that listing is over, which every later caller waits for.
func (a *annotations) listing() (first bool, listed <-chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.listed != nil {
		return false, a.listed
	}
	a.listed = make(chan struct{})
	if a.byTool != nil { // the caller listed the tools already
		close(a.listed)
		return false, a.listed
	}
	return true, a.listed
}

// doneListing says the engine's own listing is over, learned or failed.
func (a *annotations) doneListing() {
	a.mu.Lock()
	defer a.mu.Unlock()
	close(a.listed)
}

// invalid says why the annotations of tool are invalid, or nil.
func (a *annotations) invalid(tool string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if th := a.byTool[tool]; th != nil {
		return th.invalid
	}
	return nil
}

// insist lets the calls of tool go out although its annotations are
// invalid; it holds for a tool not listed yet too.
func (a *annotations) insist(tool string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.insisted == nil {
		a.insisted = make(map[string]bool)
	}
	a.insisted[tool] = true
}

// headers are the Mcp-Param headers of a call of tool with args, the
// call's arguments as JSON, read only when the tool binds some of them. A
// tool whose annotations are invalid is refused with an
// *InvalidToolHeadersError, unless the user insisted on it or it was
// refused once already: calling it again is insisting. Then it goes out
// without the headers.
func (a *annotations) headers(tool string, args json.RawMessage) ([]ParamHeader, error) {
	a.mu.Lock()
	th := a.byTool[tool]
	insisted := a.insisted[tool] || th != nil && th.refused
	if th != nil && th.invalid != nil {
		th.refused = true
	}
	a.mu.Unlock()
	if th == nil {
		return nil, nil
	}
	if th.invalid != nil {
		if !insisted {
			return nil, fmt.Errorf("%w; sending it again insists", &InvalidToolHeadersError{Tool: tool, Reason: th.invalid})
		}
		return nil, nil
	}
	if len(th.bindings) == 0 {
		return nil, nil
	}
	var values map[string]any
	if json.Unmarshal(args, &values) != nil {
		return nil, nil // arguments that are no object bind nothing
	}
	var out []ParamHeader
	for _, b := range th.bindings {
		if v, ok := argumentAt(values, b.path); ok {
			out = append(out, ParamHeader{Name: b.header, Value: v})
		}
	}
	return out, nil
}

// InvalidToolHeaders says why the x-mcp-header annotations of the tool
// named tool are invalid, as the session learned them from a 2026-07-28
// tools/list answer: a tool it refuses to call unless InsistOnTool is
// called first. It returns nil when they are valid, when the tool was not
// listed yet, and on a transport that mirrors no arguments into headers.
func (s *Session) InvalidToolHeaders(tool string) *InvalidToolHeadersError {
	if reason := s.tools.invalid(tool); reason != nil {
		return &InvalidToolHeadersError{Tool: tool, Reason: reason}
	}
	return nil
}

// InsistOnTool lets the calls of the tool named tool go out although its
// x-mcp-header annotations are invalid (without their Mcp-Param headers).
func (s *Session) InsistOnTool(tool string) { s.tools.insist(tool) }

// ParamHeadersError says why the x-mcp-header annotations of a tool's
// input schema break the 2026-07-28 rules, as the engine judges them
// before a call, or returns nil when they are valid or there are none.
func ParamHeadersError(inputSchema json.RawMessage) error {
	_, err := scanBindings(inputSchema)
	return err
}
