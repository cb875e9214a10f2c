package screen

import (
	"context"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// InjectFunc sends a message into a proxied session as if its host had
// sent it: a request is given an id of the proxy's own, returned, and its
// answer is kept from the host; a notification's id is "".
type InjectFunc func(ctx context.Context, body []byte) (id string, err error)

// Injector is a Host on a live proxied session: what the composer sends
// goes into the session through the InjectFunc instead of a connection of
// mcpscope's own. Injector returns nil when there is no live session to
// inject into.
type Injector interface {
	Injector() InjectFunc
	// InjectedAnswer is the answer to the injected request id, once the
	// proxy captured it (and kept it from the host).
	InjectedAnswer(id string) (*jsonrpc.Message, bool)
}

// InjectorOf returns h's InjectFunc, or nil when h injects nowhere.
func InjectorOf(h Host) InjectFunc {
	if i, ok := h.(Injector); ok {
		return i.Injector()
	}
	return nil
}

// InjectedAnswer is the answer to the request h injected as id, once it
// came; false for a Host that injects nowhere.
func InjectedAnswer(h Host, id string) (*jsonrpc.Message, bool) {
	if i, ok := h.(Injector); ok {
		return i.InjectedAnswer(id)
	}
	return nil, false
}
