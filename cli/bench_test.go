package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// benchJSON is bench's JSON summary as a test reads it.
type benchJSON struct {
	Call        string  `json:"call"`
	Concurrency int     `json:"concurrency"`
	Started     int     `json:"started"`
	Completed   int     `json:"completed"`
	OK          int     `json:"ok"`
	Errors      int     `json:"errors"`
	Throughput  float64 `json:"throughput"`
	Latency     *struct {
		Min, Mean, P50, P90, P99, Max float64
	} `json:"latencyMs"`
	ErrorKinds []struct {
		Kind  string `json:"kind"`
		Count int    `json:"count"`
	} `json:"errorKinds"`
}

// benchRun runs bench with args and decodes its JSON summary.
func benchRun(t *testing.T, code int, args ...string) (benchJSON, result) {
	t.Helper()
	r := mcpscope(t, append([]string{"bench"}, args...)...)
	r.mustExit(t, code)
	var got benchJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("the summary is not JSON: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return got, r
}

// A few hundred calls against each real server and the demo: every call
// started completes and succeeds, and the latency figures are in order.
func TestBenchAgainstPeers(t *testing.T) {
	echo := `{"name":"echo","arguments":{"message":"hi"}}`
	cases := []struct {
		name   string
		target func(t *testing.T) []string
		params string
	}{
		{"typescript", func(t *testing.T) []string { return append([]string{"--"}, peertest.TSEverything(t, "stdio")...) }, echo},
		{"go-sdk", func(t *testing.T) []string { return append([]string{"--"}, peertest.GoSDKEverything(t)...) }, `{"name":"greet","arguments":{"name":"Ada"}}`},
		{"mark3labs", func(t *testing.T) []string { return append([]string{"--"}, peertest.Mark3labsEverything(t)...) }, echo},
		{"demo", func(t *testing.T) []string { return demoServer(t) }, echo},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, _ := benchRun(t, ExitOK, append([]string{"--requests", "200", "--concurrency", "8", "tools/call", tc.params}, tc.target(t)...)...)
			if got.Started != 200 || got.Completed != 200 || got.OK != 200 || got.Errors != 0 || len(got.ErrorKinds) != 0 {
				t.Errorf("want 200 calls started, completed and ok: %+v", got)
			}
			l := got.Latency
			if l == nil || !(l.Min > 0 && l.Min <= l.P50 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) || got.Throughput <= 0 {
				t.Errorf("latency figures out of order: %+v", got)
			}
		})
	}
}

// The summary's JSON members, all of them, and the same run as text.
func TestBenchSummaryShape(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, append([]string{"bench", "--format", "json", "--requests", "20", "--rate", "1000", "ping"}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &members); err != nil {
		t.Fatal(err)
	}
	want := []string{"call", "completed", "concurrency", "elapsedMs", "errorKinds", "errorRate", "errors", "latencyMs", "ok", "okPerSecond", "rate", "requestLimit", "scheduled", "started", "throughput", "unfinished"}
	if keys := slices.Sorted(func(yield func(string) bool) {
		for k := range members {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(keys, want) {
		t.Errorf("members %v, want %v", keys, want)
	}
	var lat map[string]float64
	if err := json.Unmarshal(members["latencyMs"], &lat); err != nil || len(lat) != 6 {
		t.Errorf("latencyMs %s: want min, mean, p50, p90, p99, max", members["latencyMs"])
	}

	r = mcpscope(t, append([]string{"bench", "--format", "text", "--requests", "20", "ping"}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	for _, line := range []string{"call         ping\n", "concurrency  10\n", "completed    20 in ", "throughput   ", " ok/s\n", "errors       0 (0.00%)\n", "latency      p50 "} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("text summary lacks %q:\n%s", line, r.stdout)
		}
	}
}

// A counting relay between bench and the Go SDK server (tee of the
// server's stdout) sees as many answers to the benched call as bench
// says completed.
func TestBenchCountsAgreeWithTheServersAnswers(t *testing.T) {
	t.Parallel()
	seen := filepath.Join(t.TempDir(), "answers.jsonl")
	relay := []string{"--", "sh", "-c", peertest.GoSDKEverything(t)[0] + " 2>/dev/null | tee " + seen}
	got, _ := benchRun(t, ExitOK, append([]string{"--requests", "300", "--concurrency", "16", "tools/call", `{"name":"greet","arguments":{"name":"Relay"}}`}, relay...)...)
	f, err := os.Open(seen)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	answers := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"Hi Relay"`) {
			answers++
		}
	}
	if answers != got.Completed || got.Completed != 300 {
		t.Errorf("the server answered %d calls; bench says %d completed (want 300)", answers, got.Completed)
	}
}

// Every call of a recording failing as a tool (isError) is counted by
// kind, and a run where no call succeeded exits 1.
func TestBenchRecordingErrorsByKind(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "session.mcpscope.jsonl")
	r := mcpscope(t, append([]string{"call", "tools/call", `{"name":"register_user"}`, "--record", path}, demoServer(t)...)...)
	r.mustExit(t, ExitRPCError)
	got, r := benchRun(t, ExitRPCError, append([]string{"--recording", path, "--requests", "40", "--concurrency", "4"}, demoServer(t)...)...)
	if got.Completed != 40 || got.Errors != 40 || len(got.ErrorKinds) != 1 || got.ErrorKinds[0].Kind != "tool isError" || got.ErrorKinds[0].Count != 40 {
		t.Errorf("want 40 calls failed as tool isError: %+v", got)
	}
	if got.Latency == nil {
		t.Errorf("a tool failure is an answer, and timed: %+v", got)
	}
	if !strings.Contains(r.stderr, "no call succeeded: all 40 failed (tool isError)") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// benchDiesAfter is how many pings the "bench-dies" stub answers before
// it exits.
const benchDiesAfter = 20

// Stub mode "bench-dies" answers benchDiesAfter pings, then exits.
func init() {
	pings := 0
	stubRequestHooks["bench-dies"] = func(out *bufio.Writer, method string, id json.RawMessage) bool {
		if method != "ping" {
			return false
		}
		if pings++; pings > benchDiesAfter {
			os.Exit(1)
		}
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}` + "\n")
		out.Flush()
		return true
	}
}

// A server that goes away mid-run ends it with exit 3, the summary so far
// printed.
func TestBenchConnectionLost(t *testing.T) {
	t.Parallel()
	argv, env := stubArgv(t, "bench-dies")
	target := append([]string{"--env", env, "--"}, argv...)
	got, r := benchRun(t, ExitConnection, append([]string{"--requests", "100000", "--concurrency", "4", "ping"}, target...)...)
	if got.OK != benchDiesAfter || got.Completed >= 100000 || got.Started != got.Completed {
		t.Errorf("summary %+v", got)
	}
	if !strings.Contains(r.stderr, "connection") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// bench tool NAME K=V… types the words by the tool's inputSchema.
func TestBenchToolWords(t *testing.T) {
	t.Parallel()
	got, _ := benchRun(t, ExitOK, append([]string{"--requests", "50", "tool", "echo", "message=hi"}, demoServer(t)...)...)
	if got.Call != "tools/call echo" || got.OK != 50 {
		t.Errorf("%+v", got)
	}
}

// Usage mistakes exit 2 before anything is started.
func TestBenchUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"bench", "--", "true"},
		{"bench", "--concurrency", "0", "ping", "--", "true"},
		{"bench", "--format", "xml", "ping", "--", "true"},
		{"bench", "--rate", "-1", "ping", "--", "true"},
		{"bench", "--recording", "x.jsonl", "ping", "--", "true"},
		{"bench", "tool", "--", "true"},
		{"bench", "--progress", "ping", "--", "true"},
		{"bench", "ping"},
	} {
		r := mcpscope(t, args...)
		if r.code != ExitUsage || r.stdout != "" {
			t.Errorf("mcpscope %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
	}
	if r := mcpscope(t, "bench", "ping"); !strings.HasPrefix(r.stderr, "error: missing TARGET") {
		t.Errorf("bench METHOD without a TARGET: %q", r.stderr)
	}
}
