package capture

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSSEForgetsAsTheRuleSays opens, ends and opens again streams at random
// past a small bound and checks, after each step, that the table remembers
// exactly the streams the rule keeps (the oldest finished stream goes
// first, the oldest of all when none is finished), worked out by walking a
// plain model.
func TestSSEForgetsAsTheRuleSays(t *testing.T) {
	const bound = 8
	rng := rand.New(rand.NewPCG(1, 2))
	st := NewStore(Config{MaxSSEStreams: bound})
	type rec struct {
		order    uint64
		finished bool
	}
	model := map[string]*rec{}
	var tick uint64
	for step := range 20000 {
		conn := fmt.Sprintf("c%d", rng.IntN(3*bound))
		if r, ok := model[conn]; ok && !r.finished && rng.IntN(3) > 0 {
			st.EndSSE(conn, SSEDone, "")
			r.finished = true
		} else {
			if _, ok := model[conn]; !ok && len(model) >= bound {
				victim, _ := toForget(model, func(r *rec) (bool, uint64) { return r.finished, r.order })
				delete(model, victim)
			}
			st.OpenSSE(conn, SSEStart{Kind: SSEAnswer})
			tick++
			model[conn] = &rec{order: tick}
		}
		var want []string
		for c := range model {
			want = append(want, c)
		}
		var got []string
		for _, s := range st.SSEStreams() {
			got = append(got, s.Conn)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: the table remembers %v, the rule keeps %v", step, got, want)
		}
	}
}
