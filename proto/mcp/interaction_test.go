package mcp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestInteractionSeedMessages decodes the params and results of the seed's
// examples and re-encodes them with the same keys.
func TestInteractionSeedMessages(t *testing.T) {
	cases := []struct {
		name string
		json string
		v    any
	}{
		{"start params", `{"toolName":"string","initialParams":{},"context":{},"timeout":300000}`, &InteractionStartParams{}},
		{"start result", `{"sessionId":"session_abc123","state":"idle","initialPrompt":{"type":"text","message":"Enter destination:","validation":{"required":true}}}`, &InteractionStartResult{}},
		{"prompt params", `{"sessionId":"session_abc123","prompt":{"type":"choice","message":"Select option:","choices":[{"value":"a","label":"Option A"},{"value":"b","label":"Option B"}],"validation":{"required":true}},"progress":{"current":2,"total":5,"message":"Step 2 of 5"}}`, &InteractionPromptParams{}},
		{"ack", `{"acknowledged":true}`, &InteractionAck{}},
		{"respond params", `{"sessionId":"session_abc123","response":{"value":"selected_value","timestamp":1704067200000,"metadata":{}}}`, &InteractionRespondParams{}},
		{"respond result", `{"accepted":false,"validation":{"valid":false,"error":"Invalid format","suggestion":"Use YYYY-MM-DD"}}`, &InteractionRespondResult{}},
		{"continue params", `{"sessionId":"session_abc123","nextPrompt":{"type":"text","message":"Next step..."},"progress":{"current":3,"total":5}}`, &InteractionContinueParams{}},
		{"complete params", `{"sessionId":"session_abc123","result":{"success":true,"data":{}},"summary":"Completed successfully"}`, &InteractionCompleteParams{}},
		{"complete result", `{"success":true,"finalResult":{}}`, &InteractionCompleteResult{}},
		{"cancel params", `{"sessionId":"session_abc123","reason":"User cancelled"}`, &InteractionCancelParams{}},
		{"cancel result", `{"cancelled":true}`, &InteractionCancelResult{}},
		{"getState params", `{"sessionId":"session_abc123"}`, &InteractionGetStateParams{}},
		{"getState result", `{"sessionId":"session_abc123","state":"waiting_user","metadata":{"createdAt":1704067200000,"lastActivityAt":1704067300000,"toolName":"booking"},"history":[{"turnId":0,"prompt":{},"response":{},"timestamp":1704067250000}],"currentPrompt":{"type":"text","message":"m"},"accumulatedData":{}}`, &InteractionStateResult{}},
		{"capabilities", `{"interactive":true,"version":"0.1.0","features":{"multiplePromptTypes":true,"progressTracking":true,"sessionPersistence":false,"statefulSessions":true,"validation":true}}`, &InteractiveCapabilities{}},
		{"extensions", `{"type":"choice","message":"m","choices":[{"value":1,"label":"one","description":"d"}],"multiple":true,"format":"date-time","schema":{"type":"object"},"accept":[".csv"],"error":"e","suggestion":"s"}`, &InteractionPrompt{}},
	}
	for _, c := range cases {
		if err := json.Unmarshal([]byte(c.json), c.v); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out, err := json.Marshal(c.v)
		if err != nil {
			t.Fatalf("%s: re-encode: %v", c.name, err)
		}
		var want, got any
		_ = json.Unmarshal([]byte(c.json), &want)
		_ = json.Unmarshal(out, &got)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s: round trip\n got %s\nwant %s", c.name, out, c.json)
		}
	}
}

// TestInteractionPromptFields checks that the seed's prompt decodes into the
// named fields.
func TestInteractionPromptFields(t *testing.T) {
	var p InteractionPromptParams
	raw := `{"sessionId":"s","prompt":{"type":"number","message":"Enter amount:","validation":{"required":true,"min":0,"max":1000}},"expiresAt":1704067200000}`
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	v := p.Prompt.Validation
	if p.Prompt.Type != PromptNumber || v == nil || !v.Required || v.Min == nil || *v.Min != 0 || v.Max == nil || *v.Max != 1000 || p.ExpiresAt != 1704067200000 {
		t.Fatalf("decoded %+v validation %+v", p, v)
	}
}
