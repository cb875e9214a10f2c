package findings

import "testing"

// A key taken and put again is forgotten only when its own, later put
// is the oldest: the slot of its first put, overwritten first, no longer
// names it. Without the marks, a request id a client reuses once its
// answer came would be forgotten while pending, and its answer called
// one to an unknown id.
func TestBoundedTakenKeyPutAgain(t *testing.T) {
	b := newBounded[string, int](3)
	b.put("a", 1)
	if v, ok := b.take("a"); !ok || v != 1 {
		t.Fatalf("take a: %d %v", v, ok)
	}
	b.put("a", 2)
	b.put("b", 3)
	if forgot := b.put("c", 4); forgot {
		t.Fatal("putting c forgot an entry: the oldest slot named a taken put")
	}
	if v, ok := b.get("a"); !ok || v != 2 {
		t.Fatalf("a after c: %d %v, want 2 held", v, ok)
	}
	if forgot := b.put("d", 5); !forgot || b.has("a") {
		t.Fatalf("putting d: forgot %v, a held %v; want a forgotten", forgot, b.has("a"))
	}
	if b.len() != 3 || !b.has("b") || !b.has("c") || !b.has("d") {
		t.Fatalf("held %d", b.len())
	}
}

// However keys are put and taken, no more than max are held.
func TestBoundedStaysBounded(t *testing.T) {
	b := newBounded[int, int](8)
	for i := range 1000 {
		b.put(i%13, i)
		if i%3 == 0 {
			b.take((i + 5) % 13)
		}
		if b.len() > 8 {
			t.Fatalf("after %d puts %d held", i+1, b.len())
		}
	}
}
