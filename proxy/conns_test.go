package proxy

import "testing"

// TestConnsNamesAndNewest names connections in the order they open and
// finds the newest one that can carry an injection, after others closed.
func TestConnsNamesAndNewest(t *testing.T) {
	cs := NewConns[*int]("ws")
	a, b, c := new(int), new(int), new(int)
	*c = 1
	for i, want := range []string{"ws1", "ws2", "ws3"} {
		if got := cs.Opened([]*int{a, b, c}[i]); got != want {
			t.Fatalf("connection %d named %q, want %q", i, got, want)
		}
	}
	ready := func(p *int) bool { return *p == 0 }
	if got, ok := cs.Newest(ready); !ok || got != b {
		t.Fatalf("newest ready: %p %t, want the second", got, ok)
	}
	cs.Closed(b)
	if got, ok := cs.Newest(ready); !ok || got != a {
		t.Fatalf("newest ready after the second closed: %p %t, want the first", got, ok)
	}
	cs.Closed(a)
	if _, ok := cs.Newest(ready); ok {
		t.Fatal("no ready connection is left")
	}
	if got := cs.Opened(a); got != "ws4" {
		t.Fatalf("a connection opened again is named %q, want ws4", got)
	}
	if all := cs.All(); len(all) != 2 || all[0] != c || all[1] != a {
		t.Fatalf("open connections %v", all)
	}
}
