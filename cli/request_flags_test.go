package cli

import (
	"encoding/json"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// --log-level asks the Go SDK conformance server for its log messages,
// with logging/setLevel in 2025-11-25 and with _meta logLevel in
// 2026-07-28, which has no setLevel (and deprecates logging: the first
// message brings the one note that says so); each one prints on stderr as
// "log LEVEL DATA" before the result. A level above the message's
// silences it, and an unknown level is refused with exit 2.
func TestLogLevelPrintsTheServersMessages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		flags  []string
		sent   string // the method that carries the level
		stderr string
	}{
		{"2026-07-28", []string{"--log-level", "info"}, "tools/call", loggingDeprecated + "log info test_logging_tool executed\n"},
		{"2025-11-25", []string{"--log-level", "info", legacy}, "logging/setLevel", "log info test_logging_tool executed\n"},
		{"above the message", []string{"--log-level", "error"}, "tools/call", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := recordPath(t)
			args := append([]string{"tool", "--record", rec, "test_logging_tool"}, c.flags...)
			r := mcpscope(t, withTarget([]string{peertest.GoSDKConformance(t)}, args...)...)
			r.mustExit(t, ExitOK)
			if r.stderr != c.stderr {
				t.Fatalf("stderr %q, want %q", r.stderr, c.stderr)
			}
			level := c.flags[1]
			found := false
			for _, req := range sentRequests(t, rec) {
				switch {
				case req.Method == "logging/setLevel" && c.sent == req.Method:
					found = strings.Contains(string(req.Params), `"level":"`+level+`"`)
				case req.Method == "tools/call" && c.sent == req.Method:
					found = strings.Contains(string(req.Params), `"`+mcp.MetaLogLevel+`":"`+level+`"`)
				}
			}
			if !found {
				t.Fatalf("no %s carried the level %s", c.sent, level)
			}
		})
	}
	t.Run("unknown level", func(t *testing.T) {
		t.Parallel()
		r := mcpscope(t, "tool", "--log-level", "verbose", "x", "--", "true")
		r.mustExit(t, ExitUsage)
		if !strings.Contains(r.stderr, `--log-level "verbose" is not a level: give one of debug, info, notice, warning, error, critical, alert, emergency`) {
			t.Fatalf("stderr %q", r.stderr)
		}
	})
}

// --log-level on the Go SDK everything server: its log tool's message
// prints on stderr in either era, through tool and call alike, and
// nothing else does.
func TestLogLevelGoSDKEverything(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", legacy} {
		args := []string{"tool", "--log-level", "debug", "log"}
		if protocol != "" {
			args = append(args, protocol)
		}
		r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), args...)...)
		r.mustExit(t, ExitOK)
		want := "log error something happened!\n"
		if protocol == "" {
			want = loggingDeprecated + want // the Go SDK speaks 2026-07-28
		}
		if r.stderr != want {
			t.Fatalf("%s: stderr %q", protocol, r.stderr)
		}
	}
	r := mcpscope(t, withTarget(peertest.GoSDKEverything(t), "call", "--log-level", "warning", "tools/call", `{"name":"log"}`)...)
	r.mustExit(t, ExitOK)
	if r.stderr != loggingDeprecated+"log error something happened!\n" {
		t.Fatalf("call: stderr %q", r.stderr)
	}
}

// --meta K=V adds members to the _meta of the command's requests, values
// as JSON when they parse: on tool's tools/call and on call's request
// alike, beside the server's own members.
func TestMetaReachesTheRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		args   []string
		method string
	}{
		{"tool", []string{"tool", "get-sum", "a=1", "b=2"}, "tools/call"},
		{"call", []string{"call", "prompts/get", `{"name":"simple-prompt","_meta":{"keep":1}}`}, "prompts/get"},
		{"bench", []string{"bench", "--requests", "2", "tool", "get-sum", "a=1", "b=2"}, "tools/call"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := recordPath(t)
			args := append([]string{"--record", rec, "--meta", "trace=abc-1", "--meta", "n=5", "--meta", `obj={"k":[1]}`}, c.args...)
			r := mcpscope(t, withTarget(peertest.TSEverything(t, "stdio"), args...)...)
			r.mustExit(t, ExitOK)
			var meta map[string]json.RawMessage
			for _, req := range sentRequests(t, rec) {
				if req.Method == c.method {
					var p struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					}
					_ = json.Unmarshal(req.Params, &p)
					meta = p.Meta
				}
			}
			want := map[string]string{"trace": `"abc-1"`, "n": `5`, "obj": `{"k":[1]}`}
			if c.name == "call" {
				want["keep"] = "1"
			}
			for k, v := range want {
				if string(meta[k]) != v {
					t.Errorf("_meta.%s = %s, want %s (all: %v)", k, meta[k], v, meta)
				}
			}
		})
	}
	t.Run("progressToken beside --progress", func(t *testing.T) {
		t.Parallel()
		r := mcpscope(t, withTarget(peertest.TSEverything(t, "stdio"), "--progress", "--meta", "progressToken=mine", "tool", "echo", "message=hi")...)
		r.mustExit(t, ExitOK)
		if !strings.Contains(r.stderr, "warning: --progress sends mcpscope's own _meta.progressToken; it replaces --meta progressToken\n") {
			t.Errorf("stderr %q", r.stderr)
		}
	})
	t.Run("not K=V", func(t *testing.T) {
		t.Parallel()
		r := mcpscope(t, "call", "--meta", "novalue", "ping", "--", "true")
		r.mustExit(t, ExitUsage)
		if r.stderr != "error: --meta \"novalue\" is not of the form KEY=VALUE\n" {
			t.Fatalf("stderr %q", r.stderr)
		}
	})
}

// formatLog renders what a server sends as one safe line.
func TestLogLevelLineIsSafe(t *testing.T) {
	for params, want := range map[string]string{
		`{"level":"info","logger":"db","data":"ready"}`:          "log info [db] ready",
		`{"level":"error","data":{"code":7,"msg":"x"}}`:          `log error {"code":7,"msg":"x"}`,
		`{"level":"warning","data":"two\nlines \u001b[2Jclear"}`: `log warning two lines \x1b[2Jclear`,
		`[1,2]`: "log [1,2]",
	} {
		if got := formatLog(json.RawMessage(params)); got != want {
			t.Errorf("formatLog(%s) = %q, want %q", params, got, want)
		}
	}
}

// FuzzFormatLog: whatever a notifications/message holds, its line is one
// line with no control character, bounded.
func FuzzFormatLog(f *testing.F) {
	f.Add(`{"level":"info","logger":"db","data":"ready"}`)
	f.Add(`{"level":"\u009b","data":[1,{"a":"\n"}]}`)
	f.Add(strings.Repeat("\xc9", 2354)) // not JSON: shown whole-escaped, four bytes a byte
	f.Fuzz(func(t *testing.T, params string) {
		got := formatLog(json.RawMessage(params))
		// Level, logger and data are each cut to termtext.ServerTextMax
		// bytes, and an escaped byte takes at most 4.
		if strings.ContainsAny(got, "\n\r\x1b\x00") || len(got) > 3*(4*termtext.ServerTextMax+64) {
			t.Fatalf("formatLog = %q", got)
		}
	})
}

// loggingDeprecated is the note a 2026-07-28 run prints once, before its
// first log line.
const loggingDeprecated = "note: notifications/message received: the logging feature is deprecated as of 2026-07-28 (SEP-2577) and still works. Servers should migrate to stderr logging (for STDIO transports) or OpenTelemetry.\n"
