package ui

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// callRef names a call as the view of a request's frames (w) follows it:
// who asked and the request id, so that a server request never passes for
// the client's request with the same number.
type callRef struct {
	fromServer bool
	id         string // jsonrpc.ID.Key()
}

// holds reports whether f belongs to the call or names it: its request,
// response, execution streams and datagrams, progress and cancellation.
func (r callRef) holds(f *capture.Frame) bool {
	k, ok := callOf(f)
	if !ok {
		k, ok = notifiedCall(f)
	}
	return ok && k.fromServer == r.fromServer && k.id == r.id
}

// callFilter is the filter of the view of the client's request id (w): its
// frames, and (filterView.follow) the server requests that arrive while it
// runs.
func callFilter(id jsonrpc.ID) filter {
	return filter{text: "#" + idText(id), terms: []term{{kind: termCall, call: callRef{id: id.Key()}}}}
}

// addCall lets the frames of call r through too; label, when set, is
// added to the filter's text.
func (fl *filter) addCall(r callRef, label string) {
	for _, t := range fl.terms {
		if t.kind == termCall && t.call == r {
			return
		}
	}
	fl.terms = append(fl.terms, term{kind: termCall, call: r})
	if label != "" {
		fl.text += " #" + label
	}
}

// follow, for the view of a request's frames, takes in the calls tied to
// the ones it shows, as f, read in Seq order, reveals them: a server
// request that arrives while one of the client's calls shown runs (a
// sampling or elicitation request the user answers) and, when live, a
// request the user drives next. Requests the UI sends on its own (list
// reloads, probes) stay out.
func (v *filterView) follow(f *capture.Frame, x *index, live bool) {
	if !v.sent || f.Chan.Kind != capture.Control || f.Msg == nil || f.Msg.Kind() != jsonrpc.KindRequest {
		return
	}
	k, ok := callOf(f)
	if !ok {
		return
	}
	switch {
	case !k.fromServer && live && drivenByUser(f.Msg):
		v.fl.addCall(callRef{id: k.id}, idText(*f.Msg.ID))
	case k.fromServer && v.runningAt(f, x):
		v.fl.addCall(callRef{fromServer: true, id: k.id}, "")
	}
}

// runningAt reports whether one of the client's calls the view shows was
// running, on f's session, when f arrived.
func (v *filterView) runningAt(f *capture.Frame, x *index) bool {
	for _, t := range v.fl.terms {
		if t.kind != termCall || t.call.fromServer {
			continue
		}
		c, ok := x.calls[callKey{conn: sessionConn(f.Conn), id: t.call.id}]
		if ok && !c.sent.IsZero() && !f.Time.Before(c.sent) && (c.ended.IsZero() || !f.Time.After(c.ended)) {
			return true
		}
	}
	return false
}

// drivenByUser reports whether a request of the client is one the user
// drove: the UI asks progress (screen.AskProgress) on every request it
// sends for the user, with the request's own id as the token, and on none
// it sends on its own.
func drivenByUser(m *jsonrpc.Message) bool {
	var p struct {
		Meta struct {
			Token *jsonrpc.ID `json:"progressToken"`
		} `json:"_meta"`
	}
	if m.ID == nil || json.Unmarshal(m.Params, &p) != nil || p.Meta.Token == nil {
		return false
	}
	return p.Meta.Token.Key() == m.ID.Key()
}
