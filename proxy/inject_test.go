package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// injectorLog records what an Injector was given.
type injectorLog struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (l *injectorLog) inject(_ context.Context, body []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bodies = append(l.bodies, body)
	return nil
}

// An injected request gets an id of the session's namespace, never one
// the host has in flight; its answer is captured and kept from the host,
// while the answer to the host's own request of a look-alike id goes on.
func TestInjectNamespacesAndKeepsTheAnswer(t *testing.T) {
	s := openSession(t)
	c := &fakeCarrier{}
	if _, err := s.Inject(t.Context(), []byte(request(1, "tools/list", "{}"))); !errors.Is(err, ErrNoServerPath) {
		t.Fatalf("Inject with no injector: %v", err)
	}
	var log injectorLog
	s.SetInjector(log.inject)

	// The host has in flight a request whose id is the next injected one.
	colliding := s.space + "1"
	hostReq := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":"echo"}}`, colliding)
	relay(t, s, hop(capture.Out, hostReq), c)

	id, err := s.Inject(t.Context(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if id != s.space+"2" || !strings.HasPrefix(id, "mcpscope-") {
		t.Fatalf("injected id %q, want %q (the host holds %q)", id, s.space+"2", colliding)
	}
	if len(log.bodies) != 1 {
		t.Fatalf("the injector got %d bodies", len(log.bodies))
	}
	var sent struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(log.bodies[0], &sent); err != nil || sent.ID != id {
		t.Fatalf("the injector got %s, want id %q", log.bodies[0], id)
	}

	relay(t, s, hop(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"n":3}}`, id)), c)
	relay(t, s, hop(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"n":1}}`, colliding)), c)
	got := c.took()
	if len(got) != 2 || got[1].call != "pass" || !strings.Contains(string(got[1].hop.Raw), `"n":1`) {
		t.Fatalf("carried %+v: the host's request and its own answer only", got)
	}
	ms := marks(s)
	if len(ms) != 2 || ms[0].What != WhatInjected || ms[0].ID != strconv.Quote(id) || ms[0].Tool != "add" ||
		ms[1].What != WhatKept || ms[1].ID != strconv.Quote(id) || ms[1].Tool != "add" || ms[1].Seq == 0 {
		t.Fatalf("marks %+v", ms)
	}
	kept, _ := s.Store().Get(ms[1].Seq)
	if kept == nil || !strings.Contains(string(kept.Raw), `"n":3`) || kept.Dir != capture.In {
		t.Fatalf("the kept answer is not captured: %+v", kept)
	}
	// The injected request is captured after its mark.
	fs := frames(s)
	if len(fs) != 4 || string(fs[1].Raw) != string(log.bodies[0]) || fs[1].Dir != capture.Out {
		t.Fatalf("frames %+v", fs)
	}
}

// A notification is injected as it is, with no id; what is not a request
// or a notification is refused.
func TestInjectNotificationAndRefusals(t *testing.T) {
	s := openSession(t)
	var log injectorLog
	s.SetInjector(log.inject)
	id, err := s.Inject(t.Context(), []byte(`{"method":"notifications/roots/list_changed"}`))
	if err != nil || id != "" {
		t.Fatalf("Inject: %q, %v", id, err)
	}
	if len(log.bodies) != 1 || !strings.Contains(string(log.bodies[0]), `"jsonrpc":"2.0"`) {
		t.Fatalf("injected %q", log.bodies)
	}
	for _, bad := range []string{"", "[]", `{"id":1}`, `{"id":1,"result":{}}`, "{"} {
		if _, err := s.Inject(t.Context(), []byte(bad)); err == nil {
			t.Errorf("Inject(%q) was taken", bad)
		}
	}
	if len(log.bodies) != 1 {
		t.Errorf("refused messages reached the injector: %q", log.bodies)
	}
}

// An injected request whose answer never comes leaves the answer of a
// forgotten one still kept by its namespace.
func TestInjectedAnswerKeptAfterItsCallIsForgotten(t *testing.T) {
	s := openSession(t)
	var log injectorLog
	s.SetInjector(log.inject)
	id, err := s.Inject(t.Context(), []byte(request(1, "ping", "{}")))
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.calls.forget(capture.Out, "s"+id)
	s.mu.Unlock()
	c := &fakeCarrier{}
	relay(t, s, hop(capture.In, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{}}`, id)), c)
	if len(c.took()) != 0 {
		t.Fatalf("an injected answer reached the host: %+v", c.took())
	}
}
