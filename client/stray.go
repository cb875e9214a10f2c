package client

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// StrayAnswer describes an answer from the server that no request in
// flight was waiting for: a second answer to a request, or an answer to an
// id the session never sent. The engine drops it (the capture keeps its
// frame) and tells Options.OnStrayAnswer. A late answer to a request the
// session gave up on (timed out, cancelled) is not one: the protocol lets
// the server send it and the client ignore it.
type StrayAnswer struct {
	// ID is the answer's id; null when the answer named none.
	ID jsonrpc.ID
	// Duplicate is true when the request with this id was answered already.
	Duplicate bool
	// Err is the answer's error object, when it is an error answer.
	Err *jsonrpc.Error
}

// shownStrayError is how many bytes of a stray error message are shown.
const shownStrayError = 200

// String says in one sentence what arrived, safe to print.
func (a StrayAnswer) String() string {
	var what string
	switch {
	case a.ID.IsNull():
		what = "the server sent an answer with id null, which names no request"
	case a.Duplicate:
		what = fmt.Sprintf("the server answered id %s a second time", termtext.Line(a.ID.String()))
	default:
		what = fmt.Sprintf("the server answered id %s, which mcpscope never sent", termtext.LineMax(a.ID.String(), shownStrayError))
	}
	if a.Err != nil {
		what += fmt.Sprintf(": error %d %s", a.Err.Code, termtext.LineMax(strconv.Quote(a.Err.Message), shownStrayError))
	}
	return what + "; it was ignored"
}

// what names the answer's id and why it answers nothing, safe to print.
func (a StrayAnswer) what() string {
	switch {
	case a.ID.IsNull():
		return "id null, which names no request"
	case a.Duplicate:
		return fmt.Sprintf("id %s, which was answered already", termtext.Line(a.ID.String()))
	}
	return fmt.Sprintf("id %s, which mcpscope never sent", termtext.LineMax(a.ID.String(), shownStrayError))
}

// strayAnswer reports an answer no request was waiting for, unless it is a
// late answer to a request given up on.
func (s *Session) strayAnswer(id jsonrpc.ID, rpcErr *jsonrpc.Error) {
	if s.opts.OnStrayAnswer == nil {
		return
	}
	if a, ok := s.unasked(id); ok {
		a.Err = rpcErr
		s.opts.OnStrayAnswer(a)
	}
}

// unasked reports whether an answer with id (no request waits for it)
// answers no request the session sent and gave up on: a second answer,
// an id never sent, id null.
func (s *Session) unasked(id jsonrpc.ID) (StrayAnswer, bool) {
	a := StrayAnswer{ID: id, Duplicate: s.answered.has(id.Key())}
	if n, ok := id.Int(); ok && !a.Duplicate && n >= 1 && n <= s.nextID.Load() {
		return a, false // sent, not answered recently: given up on
	}
	return a, true
}

// answeredInstead returns the wrong answer a transport's failure names:
// the request's exchange carried an answer to an id nobody asked for in
// place of its own (see ExchangeError.Instead).
func (s *Session) answeredInstead(why error) (StrayAnswer, bool) {
	var xe *ExchangeError
	if !errors.As(why, &xe) {
		return StrayAnswer{}, false
	}
	for _, id := range xe.Instead {
		if a, ok := s.unasked(id); ok {
			return a, true
		}
	}
	return StrayAnswer{}, false
}

// answeredMemory is how many answered requests a session remembers.
const answeredMemory = 1024

// answeredIDs remembers the keys of the last answeredMemory requests that
// got an answer. The zero value is empty.
type answeredIDs struct {
	mu   sync.Mutex
	ring [answeredMemory]string
	next int
	set  map[string]struct{}
}

// add records that the request pending under key was answered.
func (a *answeredIDs) add(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.set == nil {
		a.set = make(map[string]struct{}, answeredMemory)
	}
	if old := a.ring[a.next]; old != "" {
		delete(a.set, old)
	}
	a.ring[a.next], a.set[key] = key, struct{}{}
	a.next = (a.next + 1) % answeredMemory
}

// has reports whether the request pending under key was answered lately.
func (a *answeredIDs) has(key string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.set[key]
	return ok
}

// idTwin returns the id of the other kind that reads the same: the string
// "3" for the integer 3, and the integer 3 for the string "3" (but not for
// "03" or "+3").
func idTwin(id jsonrpc.ID) (jsonrpc.ID, bool) {
	if n, ok := id.Int(); ok {
		return jsonrpc.StringID(strconv.FormatInt(n, 10)), true
	}
	if s, ok := id.Str(); ok {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(n, 10) == s {
			return jsonrpc.IntID(n), true
		}
	}
	return jsonrpc.ID{}, false
}
