package mock

import (
	"slices"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// maxAsked bounds the server requests waiting for the client's response.
const maxAsked = 4096

// serverRequests follows the server's requests (sampling, elicitation,
// roots) through the client's response to them: one belongs to the
// request the server answers next after that response, the answer it
// held back, when that is not the request it was first placed with.
type serverRequests struct {
	waiting map[string]*placement   // connection and id → where the request went
	replied map[string][]*placement // connection → answered by the client, not yet followed by an answer
}

// placement is a server request and the exchange whose span holds it.
type placement struct {
	ex  *exchange
	raw []byte
}

// newServerRequests returns an empty follower.
func newServerRequests() serverRequests {
	return serverRequests{waiting: map[string]*placement{}, replied: map[string][]*placement{}}
}

// placed notes that the server request m, as raw, went into ex's span.
func (s serverRequests) placed(conn string, m *jsonrpc.Message, ex *exchange, raw []byte) {
	if m.ID != nil && len(raw) > 0 && len(s.waiting) < maxAsked {
		s.waiting[conn+"\x00"+m.ID.Key()] = &placement{ex: ex, raw: raw}
	}
}

// responded takes the client's response m to a server request.
func (s serverRequests) responded(conn string, m *jsonrpc.Message) {
	if m.ID == nil {
		return
	}
	key := conn + "\x00" + m.ID.Key()
	if p := s.waiting[key]; p != nil {
		delete(s.waiting, key)
		if len(s.replied[conn]) < maxAsked {
			s.replied[conn] = append(s.replied[conn], p)
		}
	}
}

// answered takes the server's answer to ex on conn: the server requests
// the client answered since the last answer move to ex's span, last
// before its answer.
func (s serverRequests) answered(conn string, ex *exchange) {
	for _, p := range s.replied[conn] {
		if p.ex == ex || !canAsk(ex.method) {
			continue
		}
		i := slices.IndexFunc(p.ex.before, func(b []byte) bool { return len(b) > 0 && &b[0] == &p.raw[0] })
		if i < 0 {
			continue
		}
		p.ex.before = slices.Delete(p.ex.before, i, i+1)
		ex.before = append(ex.before, p.raw)
	}
	delete(s.replied, conn)
}
