package live

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

func TestLiveSteeringRoundTrips(t *testing.T) {
	s := openSession(t, "steer", capture.Config{}, time.Time{})
	h := serve(t, s)
	v, other := dial(t, h), dial(t, h)
	filters := []proxy.Filter{{Method: "tools/call", Dir: "host"}}
	if err := v.PauseOn(filters); err != nil {
		t.Fatal(err)
	}
	if got := s.PauseFilters(); !slices.Equal(got, filters) {
		t.Errorf("the session pauses on %v", got)
	}
	eventually(t, "the other viewer to hear of the filters", nil, func() bool { return slices.Equal(other.PauseFilters(), filters) })
	if err := v.PauseOn([]proxy.Filter{{Dir: "sideways"}}); err == nil {
		t.Error("a bad filter was taken")
	}

	// Decide with an edited body: the carrier sends the edit.
	c := &carrier{}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		relay(t, s, c, capture.Out, call(1))
	}()
	eventually(t, "the call to be held", nil, func() bool { return len(other.Held()) == 1 })
	edited := []byte(strings.Replace(call(1), `"n":1`, `"n":42`, 1))
	if err := other.Decide(other.Held()[0].N, proxy.Decision{Body: edited}); err != nil {
		t.Fatal(err)
	}
	<-relayed
	c.mu.Lock()
	sent := slices.Clone(c.sent)
	c.mu.Unlock()
	if len(sent) != 1 || string(sent[0]) != string(edited) {
		t.Errorf("the carrier sent %q, want the edited call", sent)
	}
	eventually(t, "the held list to empty", nil, func() bool { return len(v.Held()) == 0 })
	select {
	case <-v.Done():
		t.Fatalf("the viewer ended: %v", v.Err())
	default:
	}
	if err := v.Decide(99, proxy.Decision{}); err == nil || !strings.Contains(err.Error(), "no such paused message") {
		t.Errorf("deciding a message nobody holds: %v", err)
	}

	// Drop.
	relayed = make(chan struct{})
	go func() {
		defer close(relayed)
		relay(t, s, c, capture.Out, call(2))
	}()
	eventually(t, "the second call to be held", nil, func() bool { return len(v.Held()) == 1 })
	if err := v.Decide(v.Held()[0].N, proxy.Decision{Drop: true}); err != nil {
		t.Fatal(err)
	}
	<-relayed
	if passed, sent := c.counts(); passed != 0 || sent != 1 {
		t.Errorf("after a drop the carrier passed %d and sent %d", passed, sent)
	}

	// Inject: no way to the server yet, then one.
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	if _, err := v.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); err == nil || !strings.Contains(err.Error(), "no way to the server") {
		t.Errorf("an inject without a way to the server: %v", err)
	}
	var mu sync.Mutex
	var injected [][]byte
	s.SetInjector(func(_ context.Context, body []byte) error {
		mu.Lock()
		defer mu.Unlock()
		injected = append(injected, body)
		return nil
	})
	id, err := v.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil || !strings.HasPrefix(id, "mcpscope-") {
		t.Fatalf("inject: %q, %v", id, err)
	}
	mu.Lock()
	if len(injected) != 1 || !strings.Contains(string(injected[0]), `"id":"`+id+`"`) {
		t.Errorf("the server was sent %q", injected)
	}
	mu.Unlock()
	if _, err := v.Inject(ctx, []byte(`not json`)); err == nil {
		t.Error("garbage was injected")
	}

	// Faults reach the session; the viewers hear what it holds.
	rules := []proxy.Fault{{Match: proxy.Filter{Method: "tools/list"}, Action: "drop", Times: 1}}
	if err := v.SetFaults(rules); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the other viewer to hear of the faults", nil, func() bool {
		return len(other.Faults()) == len(s.Faults())
	})
}

func TestLiveTwoProxiesOfOneNameBothPublish(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	a := serve(t, openSession(t, "twin", capture.Config{}, t0))
	b := serve(t, openSession(t, "twin", capture.Config{}, t0.Add(time.Minute)))
	if a.Socket() == b.Socket() {
		t.Fatalf("both hubs listen on %s", a.Socket())
	}
	all, err := Named("twin")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Socket != b.Socket() || all[1].Socket != a.Socket() {
		t.Fatalf("List: %+v, want the newer first", all)
	}
	if e := all[0]; e.Target != "fake-server --flag" || e.Transport != "stdio" || !e.Started.Equal(t0.Add(time.Minute)) || e.PID == 0 {
		t.Errorf("entry: %+v", e)
	}
	for _, h := range []*Hub{a, b} {
		dial(t, h)
	}
	a.Close()
	if all, _ := Named("twin"); len(all) != 1 || all[0].Socket != b.Socket() {
		t.Errorf("after one closed, List: %+v", all)
	}
}

func TestLiveNextFindsTheNextSessionOfAName(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	serve(t, openSession(t, "again", capture.Config{}, t0))
	serve(t, openSession(t, "other", capture.Config{}, t0.Add(time.Hour)))
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	found := make(chan Entry, 1)
	go func() {
		e, err := Next(ctx, "again", t0)
		if err != nil {
			t.Error(err)
		}
		found <- e
	}()
	b := serve(t, openSession(t, "again", capture.Config{}, t0.Add(time.Minute)))
	if e := <-found; e.Socket != b.Socket() {
		t.Errorf("Next found %+v, want the new session", e)
	}
	short, stop := context.WithCancel(context.Background())
	stop()
	if _, err := Next(short, "again", t0.Add(time.Hour)); !errors.Is(err, context.Canceled) {
		t.Errorf("Next past its context: %v", err)
	}
}

func TestLiveListForgetsADeadProxy(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	base, err := stem(dir, "ghost")
	if err != nil {
		t.Fatal(err)
	}
	if err := writeSidecar(base+sidecarExt, Entry{Name: "ghost", PID: cmd.Process.Pid, Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	all, err := Named("ghost")
	if err != nil || len(all) != 0 {
		t.Errorf("List kept a dead proxy: %+v, %v", all, err)
	}
	if _, err := readSidecar(base + sidecarExt); err == nil {
		t.Error("the dead proxy's sidecar was left behind")
	}
}

func TestLiveListNamesTheRecording(t *testing.T) {
	s, err := proxy.Open(proxy.Options{Name: "recorded", Target: "server", Transport: "stdio", Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(nil)
	serve(t, s)
	all, err := Named("recorded")
	if err != nil || len(all) != 1 {
		t.Fatalf("List: %+v, %v", all, err)
	}
	if all[0].Recording == "" || all[0].Recording != s.Recording() {
		t.Errorf("the entry names the recording %q, the session records to %q", all[0].Recording, s.Recording())
	}
}
