package proxy

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// Relays both ways, a viewer pausing, deciding, releasing and injecting,
// and the faults changing, all at once, then Close: no race, no deadlock,
// every Relay returns and every message is accounted for.
func TestSteeringConcurrently(t *testing.T) {
	s, err := Open(Options{Name: "busy", Record: filepath.Join(t.TempDir(), "r.jsonl"), Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	var log injectorLog
	s.SetInjector(log.inject)
	c := &fakeCarrier{}
	const n = 200
	var relays sync.WaitGroup
	for _, dir := range []capture.Dir{capture.Out, capture.In} {
		relays.Add(1)
		go func() {
			defer relays.Done()
			for i := range n {
				body := callTool(i, "echo")
				if dir == capture.In {
					body = result(i)
				}
				if err := s.Relay(t.Context(), hop(dir, body), c); err != nil {
					t.Errorf("Relay: %v", err)
				}
			}
		}()
	}
	stop := make(chan struct{})
	var viewer sync.WaitGroup
	viewer.Add(1)
	go func() {
		defer viewer.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			switch i % 5 {
			case 0:
				_ = s.PauseOn([]Filter{{Tool: "echo"}})
			case 1:
				for _, h := range s.Held() {
					_ = s.Decide(h.N, Decision{Drop: h.N%2 == 0})
				}
			case 2:
				s.ReleaseAll("a viewer left")
			case 3:
				_, _ = s.Inject(t.Context(), []byte(request(i, "ping", "{}")))
			case 4:
				_ = s.SetFaults([]Fault{{Action: FaultDuplicate, Times: 1, After: i % 7}})
			}
		}
	}()
	relays.Wait()
	close(stop)
	viewer.Wait()
	if err := s.Close(nil); err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, k := range c.took() {
		if k.call == "pass" {
			passed++
		}
	}
	dropped := 0
	for _, w := range whats(s) {
		if w == WhatDropped {
			dropped++
		}
	}
	if passed+dropped < 2*n {
		t.Fatalf("%d passed, %d dropped of %d", passed, dropped, 2*n)
	}
	if w := whats(s); w[len(w)-1] != WhatEnded {
		t.Fatalf("the last mark is %s", w[len(w)-1])
	}
}
