package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// ErrSubscribeNotDeclared is why a legacy-era subscription is not sent: the
// server's capabilities do not declare resources.subscribe.
var ErrSubscribeNotDeclared = errors.New("the server does not declare resources.subscribe: it offers no resource subscriptions")

// ErrSubscriptionRefused is why a 2026-07-28 subscription failed when the
// server acknowledged its subscriptions/listen without the URI.
var ErrSubscriptionRefused = errors.New("the server acknowledged subscriptions/listen without the URI among its resourceSubscriptions")

// ResourceSubscription is one resource URI the session subscribed to: with
// resources/subscribe up to 2025-11-25, with a subscriptions/listen stream
// of its own in 2026-07-28. It counts the notifications/resources/updated
// that name its URI.
type ResourceSubscription struct {
	URI string

	s        *Session
	onUpdate func(uri string)
	updates  atomic.Int64
	last     atomic.Int64 // unix nanoseconds of the last update
	done     chan struct{}
	stop     context.CancelFunc // ends the listen (2026-07-28) or the watch of the session (legacy)
	endOnce  sync.Once
	err      error // why it ended; set before done closes
	listenID atomic.Pointer[jsonrpc.ID]
}

// SubscribeResource subscribes to uri the way the session's era says and
// returns once the server agreed: resources/subscribe answered (legacy; only
// when the server declares resources.subscribe, else
// ErrSubscribeNotDeclared), or the subscriptions/listen stream acknowledged
// with uri among its resourceSubscriptions (2026-07-28: one stream per URI,
// so that unsubscribing one never re-issues, or loses the updates of,
// another). onUpdate, when set, runs on the engine's goroutines for each
// notifications/resources/updated of uri; it must not block long. The
// subscription lasts until Unsubscribe, the end of ctx, the server ending
// the stream or the end of the session (Done).
func (s *Session) SubscribeResource(ctx context.Context, uri string, onUpdate func(uri string)) (*ResourceSubscription, error) {
	era, err := s.connectedEra()
	if err != nil {
		return nil, err
	}
	if s.ResourceSubscription(uri) != nil {
		return nil, fmt.Errorf("%s is subscribed already", uri)
	}
	life, stop := context.WithCancel(ctx)
	r := &ResourceSubscription{URI: uri, s: s, onUpdate: onUpdate, done: make(chan struct{}), stop: stop}
	if era == EraModern {
		err = r.listen(ctx, life)
	} else {
		err = r.subscribe(ctx, life)
	}
	if err != nil {
		stop()
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-r.done: // ended already: not held
	default:
		if s.resSubs[uri] != nil { // another call subscribed meanwhile
			stop()
			return nil, fmt.Errorf("%s is subscribed already", uri)
		}
		if s.resSubs == nil {
			s.resSubs = make(map[string]*ResourceSubscription)
		}
		s.resSubs[uri] = r
	}
	return r, nil
}

// ResourceSubscription returns the live subscription to uri, or nil.
func (s *Session) ResourceSubscription(uri string) *ResourceSubscription {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resSubs[uri]
}

// subscribe sends resources/subscribe and watches the session's
// notifications for the URI's updates (legacy era).
func (r *ResourceSubscription) subscribe(ctx, life context.Context) error {
	if !subscribeDeclared(r.s.ServerCapabilities()) {
		return ErrSubscribeNotDeclared
	}
	unwatch := r.s.Subscribe(func(m *jsonrpc.Message) {
		if m.Method == mcp.MethodNotifyResourceUpdated && updatedURI(m.Params) == r.URI {
			r.updated()
		}
	})
	if _, err := r.s.Call(ctx, mcp.MethodResourcesSubscribe, mcp.ResourceUpdatedParams{URI: r.URI}); err != nil {
		unwatch()
		return err
	}
	go func() {
		select {
		case <-life.Done():
			r.end(nil)
		case <-r.s.Done():
			r.end(r.s.failureErr())
		}
		unwatch()
	}()
	return nil
}

// listen opens the URI's subscriptions/listen stream and waits for its
// acknowledgement (2026-07-28).
func (r *ResourceSubscription) listen(ctx, life context.Context) error {
	params := map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{r.URI}}}
	acked := make(chan error, 1)
	var once sync.Once
	answer := func(err error) { once.Do(func() { acked <- err }) }
	go func() {
		_, err := r.s.Listen(life, params, func(ev ListenEvent) {
			switch ev.Kind {
			case ListenOpened:
				id := ev.ID
				r.listenID.Store(&id)
			case ListenAcknowledged:
				if !acceptedURI(ev.Message.Params, r.URI) {
					answer(fmt.Errorf("%s: %w", r.URI, ErrSubscriptionRefused))
					return
				}
				answer(nil)
			case ListenNotified:
				if ev.Message.Method == mcp.MethodNotifyResourceUpdated && updatedURI(ev.Message.Params) == r.URI {
					r.updated()
				}
			}
		}, WithMaxTime(0))
		if err == nil {
			err = errors.New("the server ended the subscription")
		}
		answer(err)
		if life.Err() != nil {
			err = nil // unsubscribed
		}
		r.end(err)
	}()
	select {
	case err := <-acked:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Unsubscribe ends the subscription: resources/unsubscribe (legacy), or the
// cancellation of its subscriptions/listen stream (2026-07-28). It returns
// once the subscription ended.
func (r *ResourceSubscription) Unsubscribe(ctx context.Context) error {
	r.stop()
	var err error
	if r.s.Era() != EraModern {
		_, err = r.s.Call(ctx, mcp.MethodResourcesUnsubscribe, mcp.ResourceUpdatedParams{URI: r.URI})
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return err
}

// Updates returns how many notifications/resources/updated named the URI
// and when the last one arrived (zero before the first).
func (r *ResourceSubscription) Updates() (n int, last time.Time) {
	n = int(r.updates.Load())
	if ns := r.last.Load(); ns != 0 {
		last = time.Unix(0, ns)
	}
	return n, last
}

// ListenID is the id of the subscriptions/listen request that carries the
// subscription now (2026-07-28), false in the legacy era.
func (r *ResourceSubscription) ListenID() (jsonrpc.ID, bool) {
	if id := r.listenID.Load(); id != nil {
		return *id, true
	}
	return jsonrpc.ID{}, false
}

// Done is closed when the subscription ended.
func (r *ResourceSubscription) Done() <-chan struct{} { return r.done }

// Err is why the subscription ended, once Done is closed: nil after
// Unsubscribe, else the server ending it or the lost session.
func (r *ResourceSubscription) Err() error {
	<-r.done
	return r.err
}

// updated counts one update and reports it.
func (r *ResourceSubscription) updated() {
	r.updates.Add(1)
	r.last.Store(time.Now().UnixNano())
	if r.onUpdate != nil {
		r.onUpdate(r.URI)
	}
}

// end records why the subscription ended, once, and drops it from the
// session's subscriptions.
func (r *ResourceSubscription) end(err error) {
	r.endOnce.Do(func() {
		r.s.mu.Lock()
		if r.s.resSubs[r.URI] == r {
			delete(r.s.resSubs, r.URI)
		}
		r.err = err
		close(r.done)
		r.s.mu.Unlock()
	})
}

// subscribeDeclared reports whether capabilities declare
// resources.subscribe.
func subscribeDeclared(caps json.RawMessage) bool {
	var c mcp.ServerCapabilities
	return json.Unmarshal(caps, &c) == nil && c.Resources != nil && c.Resources.Subscribe
}

// updatedURI is the uri of notifications/resources/updated params, "" when
// they do not decode.
func updatedURI(params json.RawMessage) string {
	var p mcp.ResourceUpdatedParams
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return p.URI
}

// acceptedURI reports whether the params of an acknowledgement list uri
// among the resource subscriptions the server agreed to.
func acceptedURI(params json.RawMessage, uri string) bool {
	var p struct {
		Notifications struct {
			ResourceSubscriptions []string `json:"resourceSubscriptions"`
		} `json:"notifications"`
	}
	return json.Unmarshal(params, &p) == nil && slices.Contains(p.Notifications.ResourceSubscriptions, uri)
}
