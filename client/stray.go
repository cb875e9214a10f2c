package client

import (
	"fmt"
	"strconv"

	"github.com/mcpscope/mcpscope/internal/termtext"
	"github.com/mcpscope/mcpscope/proto"
)

// StrayAnswer describes an answer from the server that no request in
// flight was waiting for. The engine drops it (the capture keeps its frame)
// and tells Options.OnStrayAnswer.
type StrayAnswer struct {
	// ID is the answer's id; null when the answer named none.
	ID proto.ID
	// Issued is true when the session did send a request with this id: the
	// answer is a duplicate, or came after the request was given up on.
	Issued bool
	// Err is the answer's error object, when it is an error answer.
	Err *proto.Error
}

// shownStrayError is how many bytes of a stray error message are shown.
const shownStrayError = 200

// String says in one sentence what arrived, safe to print.
func (a StrayAnswer) String() string {
	var what string
	switch {
	case a.ID.IsNull():
		what = "the server sent an answer with id null, which names no request"
	case a.Issued:
		what = fmt.Sprintf("the server answered id %s, which no request is waiting for (answered already or given up on)", termtext.Line(a.ID.String()))
	default:
		what = fmt.Sprintf("the server answered id %s, which mcpscope never sent", termtext.LineMax(a.ID.String(), shownStrayError))
	}
	if a.Err != nil {
		what += fmt.Sprintf(": error %d %s", a.Err.Code, termtext.LineMax(strconv.Quote(a.Err.Message), shownStrayError))
	}
	return what + "; it was ignored"
}

// strayAnswer reports an answer no request was waiting for.
func (s *Session) strayAnswer(id proto.ID, rpcErr *proto.Error) {
	if s.opts.OnStrayAnswer == nil {
		return
	}
	n, isInt := id.Int()
	s.opts.OnStrayAnswer(StrayAnswer{ID: id, Issued: isInt && n >= 1 && n <= s.nextID.Load(), Err: rpcErr})
}

// idTwin returns the id of the other kind that reads the same: the string
// "3" for the integer 3, and the integer 3 for the string "3" (but not for
// "03" or "+3").
func idTwin(id proto.ID) (proto.ID, bool) {
	if n, ok := id.Int(); ok {
		return proto.StringID(strconv.FormatInt(n, 10)), true
	}
	if s, ok := id.Str(); ok {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s {
			return proto.IntID(n), true
		}
	}
	return proto.ID{}, false
}
