package tasks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

func TestStatusLineSanitized(t *testing.T) {
	got := StatusLine(mcp.Task{TaskID: "t\x1b[2J1", Status: mcp.TaskWorking, StatusMessage: "half\nway \x1b]0;owned\x07"})
	if strings.ContainsAny(got, "\x1b\x07\n") || !strings.HasPrefix(got, "task ") || !strings.Contains(got, " working: half") {
		t.Fatalf("%q", got)
	}
	got = StatusLine(mcp.Task{TaskID: "t\u202e", Status: "w\u009b31m", StatusMessage: "a\u202eb\u2066c\u009bd"})
	if strings.ContainsAny(got, "\u202e\u2066\u009b") {
		t.Fatalf("bidi or C1 controls reach stderr: %q", got)
	}
}

func TestV1Request(t *testing.T) {
	caps := json.RawMessage(`{"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`)
	if !ServerTakesV1(caps) || ServerTakesV1(json.RawMessage(`{"tasks":{}}`)) || ServerTakesV1(json.RawMessage(`[]`)) {
		t.Fatal("ServerTakesV1")
	}
	if !WantsV1(mcp.TaskSupportRequired) || WantsV1(mcp.TaskSupportOptional) || WantsV1("") {
		t.Fatal("WantsV1")
	}
	got, err := WithV1Request(json.RawMessage(`{"name":"x"}`))
	if err != nil || string(got) != `{"name":"x","task":{"ttl":60000}}` {
		t.Fatalf("%s %v", got, err)
	}
	if _, err := WithV1Request(json.RawMessage(`[1]`)); err == nil {
		t.Fatal("an array took a task member")
	}
}
