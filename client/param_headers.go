package client

import "fmt"

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

// ParamHeaders is how a transport mirrors the arguments a
// tool annotates with x-mcp-header into Mcp-Param headers (Streamable
// HTTP, 2026-07-28). It learns the annotations from the server's
// tools/list answers, and refuses to call a tool whose annotations are
// invalid unless the user insists.
type ParamHeaders interface {
	// InvalidToolHeaders says why the annotations of the tool named tool
	// are invalid, or returns nil when they are valid or the tool is not
	// known (yet).
	InvalidToolHeaders(tool string) error
	// InsistOnTool lets every later call of the tool named tool go out
	// although its annotations are invalid, without Mcp-Param headers.
	InsistOnTool(tool string)
}

// InvalidToolHeaders says why the x-mcp-header annotations of the tool
// named tool are invalid, as the session's transport learned them from a
// tools/list answer: a tool it refuses to call unless InsistOnTool is
// called first. It returns nil when they are valid, when the tool was not
// listed yet, and on a transport that mirrors no arguments into headers.
func (s *Session) InvalidToolHeaders(tool string) *InvalidToolHeadersError {
	p := s.traits.ParamHeaders
	if p == nil {
		return nil
	}
	if reason := p.InvalidToolHeaders(tool); reason != nil {
		return &InvalidToolHeadersError{Tool: tool, Reason: reason}
	}
	return nil
}

// InsistOnTool lets the calls of the tool named tool go out although its
// x-mcp-header annotations are invalid (without their Mcp-Param headers);
// it does nothing on a transport that mirrors no arguments into headers.
func (s *Session) InsistOnTool(tool string) {
	if p := s.traits.ParamHeaders; p != nil {
		p.InsistOnTool(tool)
	}
}
