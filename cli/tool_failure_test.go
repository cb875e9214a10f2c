package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Stub modes of a stdio server whose tools fail in every way a result can:
// toolFailuresMode declares tools and lists them on two pages;
// toolFailuresNoToolsMode declares no tools capability and lists nothing.
const (
	toolFailuresMode        = "tool-failures"
	toolFailuresNoToolsMode = "tool-failures-no-tools"
)

func init() {
	stubTakeovers[toolFailuresMode] = func() int { return toolFailureServer(true) }
	stubTakeovers[toolFailuresNoToolsMode] = func() int { return toolFailureServer(false) }
}

// typedSchema is the outputSchema of the stub's typed tools.
const typedSchema = `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`

// toolFailureResults are the stub's tools/call results by tool name.
var toolFailureResults = map[string]string{
	"broken":        `{"content":[{"type":"text","text":"disk on fire\nsecond line"}],"isError":true}`,
	"plain":         `{"content":[{"type":"text","text":"fine"}]}`,
	"typed_ok":      `{"content":[{"type":"text","text":"1"}],"structuredContent":{"n":1}}`,
	"typed_missing": `{"content":[{"type":"text","text":"1"}]}`,
	"typed_bad":     `{"content":[{"type":"text","text":"x"}],"structuredContent":{"n":"x"}}`,
	"odd_broken":    `{"content":[{"type":"resource_link","uri":"file:///a","name":"a","size":"12"},{"type":"text","text":"no disk"}],"isError":true}`,
	"typed_task":    `{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","ttl":60000}}`,
}

// toolFailureServer serves initialize, tools/list (broken and plain on the
// first page, the typed tools with typedSchema on the second, reached by
// nextCursor) and tools/call from toolFailureResults, on stdio. Without
// tools it declares no capabilities and refuses tools/list.
func toolFailureServer(tools bool) int {
	out := bufio.NewWriter(os.Stdout)
	say := func(id json.RawMessage, member, value string) {
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"` + member + `":` + value + "}\n")
		out.Flush()
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Name            string `json:"name"`
				Cursor          string `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue
		}
		caps := `{}`
		if tools {
			caps = `{"tools":{}}`
		}
		switch {
		case m.Method == "initialize":
			say(m.ID, "result", `{"protocolVersion":"`+m.Params.ProtocolVersion+`","capabilities":`+caps+`,"serverInfo":{"name":"stub","version":"1"}}`)
		case m.Method == "tools/list" && tools && m.Params.Cursor == "":
			say(m.ID, "result", `{"tools":[{"name":"broken","inputSchema":{"type":"object"}},{"name":"plain","inputSchema":{"type":"object"}}],"nextCursor":"page2"}`)
		case m.Method == "tools/list" && tools:
			typed := func(name string) string {
				return `{"name":"` + name + `","inputSchema":{"type":"object"},"outputSchema":` + typedSchema + `}`
			}
			say(m.ID, "result", `{"tools":[`+typed("typed_ok")+`,`+typed("typed_missing")+`,`+typed("typed_bad")+`,`+typed("typed_task")+`]}`)
		case m.Method == "tools/call" && toolFailureResults[m.Params.Name] != "":
			say(m.ID, "result", toolFailureResults[m.Params.Name])
		case m.Method == "tasks/get": // typed_task's task, followed to its end
			say(m.ID, "result", `{"taskId":"t1","status":"completed"}`)
		case m.Method == "tasks/result":
			say(m.ID, "result", toolFailureResults["typed_ok"])
		default:
			say(m.ID, "error", `{"code":-32601,"message":"Method not found"}`)
		}
	}
	return 0
}

// runBuilt runs the built mcpscope binary with args, bounded, and returns
// its exit code and output.
func runBuilt(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	cmd := exec.CommandContext(ctx, builtBinary(t), args...)
	cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "MCPSCOPE_KEYRING=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("mcpscope %s was still running after %s; killed, it wrote:\nstdout: %s\nstderr: %s",
			strings.Join(args, " "), guard.Run, stdout.String(), stderr.String())
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// toolFailureTarget is the flags and target that start the stub in mode.
func toolFailureTarget(t *testing.T, mode string) []string {
	argv, env := stubArgv(t, mode)
	return append([]string{"--env", env, "--"}, argv...)
}

// stderrIs checks that stderr is exactly the one line want.
func stderrIs(t *testing.T, r result, want string) {
	t.Helper()
	if r.stderr != want+"\n" {
		t.Errorf("stderr:\n%s\nwant the one line:\n%s", r.stderr, want)
	}
}

// A tools/call whose result is a failure exits 1 with the result on stdout
// and one line on stderr naming the tool and its first text; the
// outputSchema comes from the second page of tools/list.
func TestCallToolFailureExits1(t *testing.T) {
	t.Parallel()
	target := toolFailureTarget(t, toolFailuresMode)
	cases := []struct {
		tool, stderr string
		code         int
	}{
		{"broken", `error: tool "broken" failed (isError): disk on fire\nsecond line`, ExitRPCError},
		{"typed_missing", `error: tool "typed_missing" declares an outputSchema but its result has no structuredContent`, ExitRPCError},
		{"typed_bad", `error: tool "typed_bad" returned structuredContent that fails its outputSchema: `, ExitRPCError},
		{"typed_ok", "", ExitOK},
		{"plain", "", ExitOK},
		{"odd_broken", `error: tool "odd_broken" failed (isError): no disk`, ExitRPCError},
		{"typed_task", "task t1 working\ntask t1 completed", ExitOK}, // the call runs as a task: the handle is not the tool's result, the task's is
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel()
			r := runBuilt(t, append([]string{"call", "tools/call", callTool(t, tc.tool, nil)}, target...)...)
			r.mustExit(t, tc.code)
			want := toolFailureResults[tc.tool]
			if tc.tool == "typed_task" {
				want = toolFailureResults["typed_ok"] // what tasks/result answers
			}
			if strings.TrimSpace(r.stdout) != want {
				t.Errorf("stdout: %s", r.stdout)
			}
			switch {
			case tc.stderr == "" && r.stderr != "":
				t.Errorf("stderr: %s", r.stderr)
			case strings.HasSuffix(tc.stderr, ": "):
				if !strings.HasPrefix(r.stderr, tc.stderr) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("stderr:\n%s", r.stderr)
				}
			case tc.stderr != "":
				stderrIs(t, r, tc.stderr)
			}
		})
	}
}

// A server that declares no tools is not asked for their list: only
// isError fails a result.
func TestCallToolFailureWithoutToolsCapability(t *testing.T) {
	t.Parallel()
	target := toolFailureTarget(t, toolFailuresNoToolsMode)
	r := runBuilt(t, append([]string{"call", "--trace", "tools/call", callTool(t, "typed_missing", nil)}, target...)...)
	r.mustExit(t, ExitOK)
	if strings.Contains(r.stderr, "tools/list") {
		t.Errorf("tools/list sent without the tools capability:\n%s", r.stderr)
	}
	r = runBuilt(t, append([]string{"call", "tools/call", callTool(t, "broken", nil)}, target...)...)
	r.mustExit(t, ExitRPCError)
	stderrIs(t, r, `error: tool "broken" failed (isError): disk on fire\nsecond line`)
}

// script prints every result up to the failing tool's, then exits 1 with
// its line; the tools are listed once for the run (two pages).
func TestScriptToolFailureExits1(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "steps.yaml")
	steps := "steps:\n  - tool: typed_ok\n  - tool: typed_ok\n  - tool: broken\n  - tool: plain\n"
	if err := os.WriteFile(answers, []byte(steps), 0o600); err != nil {
		t.Fatal(err)
	}
	target := toolFailureTarget(t, toolFailuresMode)
	r := runBuilt(t, append([]string{"script", "--answers", answers}, target...)...)
	r.mustExit(t, ExitRPCError)
	want := toolFailureResults["typed_ok"] + "\n" + toolFailureResults["typed_ok"] + "\n" + toolFailureResults["broken"] + "\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	stderrIs(t, r, `error: tool "broken" failed (isError): disk on fire\nsecond line`)

	r = runBuilt(t, append([]string{"script", "--trace", "--answers", answers}, target...)...)
	r.mustExit(t, ExitRPCError)
	if n := strings.Count(r.stderr, "request tools/list"); n != 2 {
		t.Errorf("%d tools/list requests, want the 2 pages of one listing:\n%s", n, r.stderr)
	}
}

// replay --against fails a step whose new tools/call result is a failure,
// though it matches the recording, and names it on stderr.
func TestReplayAgainstToolFailure(t *testing.T) {
	t.Parallel()
	target := toolFailureTarget(t, toolFailuresMode)
	rec := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	r := runBuilt(t, append([]string{"call", "--record", rec, "tools/call", callTool(t, "broken", nil)}, target...)...)
	r.mustExit(t, ExitRPCError)

	r = runBuilt(t, append([]string{"replay", rec, "--against"}, target...)...)
	r.mustExit(t, ExitRPCError)
	stdoutIs(t, r,
		`failed  tools/call "broken"`,
		`  tool "broken" failed (isError): disk on fire\nsecond line`,
		"1 request sent again: 0 ok, 0 differ, 1 failed, 0 skipped")
	stderrIs(t, r, `error: tool "broken" failed (isError): disk on fire\nsecond line`)
}
