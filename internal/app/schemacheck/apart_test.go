package schemacheck

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// A Schema compiled apart is not the one Compile shares for the same
// text, and validates while a validation against the shared one is under
// way (its lock held here): a long validation apart holds up no one, nor
// does anyone hold it up.
func TestCompileApartWaitsForNoSharedValidation(t *testing.T) {
	text := json.RawMessage(`{"type":"object","required":["t"],"properties":{"t":{"type":"number"}}}`)
	shared, err := Compile(text)
	if err != nil {
		t.Fatal(err)
	}
	apart, err := CompileApart(text)
	if err != nil {
		t.Fatal(err)
	}
	if apart == shared {
		t.Fatal("CompileApart returned the shared Schema")
	}
	shared.steps.mu.Lock() // a validation against the shared Schema under way
	defer shared.steps.mu.Unlock()
	done := make(chan []*Failure, 1)
	go func() {
		fails, _ := apart.Validate(json.RawMessage(`{"t":"hot"}`))
		done <- fails
	}()
	select {
	case fails := <-done:
		if len(fails) != 1 {
			t.Errorf("the Schema apart found %d failures in {\"t\":\"hot\"}, want 1", len(fails))
		}
	case <-time.After(guard.Hang):
		t.Fatal("the Schema apart waited for the shared one's validation")
	}
}
