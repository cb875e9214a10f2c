package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
)

// bigOutputSchema is weather's outputSchema grown past the 64 KiB that
// schemacheck's cache keeps, with many more properties.
func bigOutputSchema(t *testing.T) json.RawMessage {
	t.Helper()
	props := []string{`"temp":{"type":"number"}`}
	for i := range 1500 {
		props = append(props, fmt.Sprintf(`"field_number_%04d":{"type":"string","description":"a field of the result"}`, i))
	}
	s := json.RawMessage(`{"type":"object","required":["temp"],"properties":{` + strings.Join(props, ",") + `}}`)
	if len(s) <= 64<<10 {
		t.Fatalf("the schema has %d bytes, want more than the cache keeps", len(s))
	}
	return s
}

// The calls of a run share one compiled outputSchema: a call with a
// large one costs about what a call with a small one does (compiling it
// costs thousands of allocations a call), and each is still judged by it.
func TestLoadCallCompilesTheSchemaOnce(t *testing.T) {
	_, s := screentest.ConnectToolPeer(t, capture.NewStore(capture.Config{}))
	call := ToolCall("weather", nil).loadCall(s, bigOutputSchema(t))
	var failure *client.ToolFailure
	if err := call(context.Background()); !errors.As(err, &failure) || failure.Kind != client.ToolOutputInvalid {
		t.Fatalf("weather's answer: %v, want one its outputSchema refuses", err)
	}
	small := ToolCall("weather", nil).loadCall(s, json.RawMessage(`{"type":"object","required":["temp"],"properties":{"temp":{"type":"number"}}}`))
	base := testing.AllocsPerRun(20, func() { _ = small(context.Background()) })
	big := testing.AllocsPerRun(20, func() { _ = call(context.Background()) })
	t.Logf("allocations a call: %.0f with the small schema, %.0f with the large one", base, big)
	if big > 2*base+100 {
		t.Errorf("a call judged by the large schema makes %.0f allocations, by the small one %.0f: the schema is compiled again", big, base)
	}
}
