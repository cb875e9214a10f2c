package client

import "testing"

// A task handle of either generation is not the tool's result: it is not
// judged against the outputSchema (the task's final result is).
func TestCheckToolResultSkipsTaskHandles(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`)
	for _, handle := range []string{
		`{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":500}`,
		`{"task":{"taskId":"t1","status":"working"}}`,
	} {
		if f := CheckToolResult("count", []byte(handle), schema); f != nil {
			t.Errorf("%s judged: %v", handle, f)
		}
	}
	if f := CheckToolResult("count", []byte(`{"content":[]}`), schema); f == nil || f.Kind != ToolOutputMissing {
		t.Errorf("a plain result without structuredContent: %v", f)
	}
}
