package against

import "encoding/json"

// Request is one recorded request that can be sent again on its own: its
// method and its params as recorded, less the _meta members the engine
// adds itself.
type Request struct {
	Method string
	Params json.RawMessage // nil when the request had none
}

// Requests are the session's requests that replay --against would send
// again, in the order they were sent, less the interactive sessions (a
// conversation, not one request): what a load test sends round-robin.
// The handshake is not among them; the new session makes its own.
func (s *Session) Requests() []Request {
	var out []Request
	for _, st := range s.steps {
		if st.skip != "" || st.inter != nil {
			continue
		}
		out = append(out, Request{Method: st.method, Params: st.params})
	}
	return out
}
