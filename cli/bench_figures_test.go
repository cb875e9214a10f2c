package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// benchFigures are the summary's members these tests read beside
// benchJSON's.
type benchFigures struct {
	benchJSON
	Scheduled  int     `json:"scheduled"`
	Unfinished int     `json:"unfinished"`
	OKRate     float64 `json:"okPerSecond"`
}

// benchFiguresOf decodes the JSON summary r printed.
func benchFiguresOf(t *testing.T, r result) benchFigures {
	t.Helper()
	var got benchFigures
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("the summary is not JSON: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return got
}

// kindCount is how many calls failed as kind.
func (b benchFigures) kindCount(kind string) int {
	for _, k := range b.ErrorKinds {
		if k.Kind == kind {
			return k.Count
		}
	}
	return 0
}

// A server that never answers one ping in 7: with a --timeout short enough
// for the test and long enough for a busy machine to answer the others,
// bench's ok count is the server's own count of its answers, and its
// timeouts are the pings it dropped.
func TestBenchCountsAgreeWithAServerThatDropsCalls(t *testing.T) {
	t.Parallel()
	answered := filepath.Join(t.TempDir(), "answered")
	argv, env := stubArgv(t, "bench-drops")
	target := append([]string{"--env", env, "--env", benchAnsweredEnv + "=" + answered, "--"}, argv...)
	r := mcpscope(t, append([]string{"bench", "--format", "json", "--timeout", "3s", "--requests", "70", "--concurrency", "8", "ping"}, target...)...)
	r.mustExit(t, ExitOK)
	got := benchFiguresOf(t, r)
	raw, err := os.ReadFile(answered)
	if err != nil {
		t.Fatal(err)
	}
	server := strings.Count(string(raw), "\n")
	if got.OK != server || server != 60 || got.kindCount("timeout") != 10 || got.Errors != 10 || got.Completed != 70 {
		t.Errorf("the server answered %d (want 60) and dropped 10; bench says %+v", server, got)
	}
	if got.OKRate <= 0 || got.OKRate >= got.Throughput {
		t.Errorf("ok/s %g should be below the throughput %g of completed calls", got.OKRate, got.Throughput)
	}
}

// SIGINT mid-run: exit 130, the summary so far on stdout, the calls the
// interrupt cut off unfinished (neither completed nor errors).
func TestBenchInterruptPrintsTheSummarySoFar(t *testing.T) {
	// Not parallel: the process signals itself.
	holding := filepath.Join(t.TempDir(), "holding")
	argv, env := stubArgv(t, "bench-holds")
	args := append([]string{"bench", "--format", "json", "--requests", "1000", "--concurrency", strconv.Itoa(benchHolds), "ping", "--env", env, "--env", benchHoldingEnv + "=" + holding, "--"}, argv...)
	ctx, release := InterruptContext(context.Background())
	defer release()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Execute(ctx, args, strings.NewReader(""), &out, &errb) }()
	waitForFile(t, holding)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(guard.Hang):
		t.Fatalf("bench still running %s after SIGINT", guard.Hang)
	}
	r := result{code: code, stdout: out.String(), stderr: errb.String()}
	r.mustExit(t, ExitInterrupted)
	got := benchFiguresOf(t, r)
	if got.OK != benchHoldAfter || got.Completed != benchHoldAfter || got.Errors != 0 || got.Unfinished != benchHolds || got.Started != got.Completed+got.Unfinished {
		t.Errorf("want %d ok, %d unfinished, no error: %+v", benchHoldAfter, benchHolds, got)
	}
}

// waitForFile waits for path to exist (a stub's sign), guard.Hang at most.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", path, guard.Hang)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A quick run over Streamable HTTP against the TypeScript server.
func TestBenchOverHTTP(t *testing.T) {
	t.Parallel()
	p := peertest.StartTSStreamableHTTP(t)
	got, _ := benchRun(t, ExitOK, "--requests", "100", "--concurrency", "4", "tools/call", `{"name":"echo","arguments":{"message":"hi"}}`, p.URL)
	if got.Completed != 100 || got.OK != 100 {
		t.Errorf("want 100 calls ok over HTTP: %+v", got)
	}
}

// An HTTP server that goes away mid-run (its address refuses every
// connection) ends the run with exit 3 and the summary so far, as a stdio
// server's exit does.
func TestBenchHTTPServerGoneStopsTheRun(t *testing.T) {
	t.Parallel()
	p := peertest.StartGoSDKConformanceHTTP(t, true)
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	rp.ErrorLog = log.New(io.Discard, "", 0)
	var calls atomic.Int64
	var gone sync.Once
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 30 {
			// The server is gone: nothing listens any more, and the
			// connections it had are closed.
			gone.Do(func() { go func() { srv.Listener.Close(); srv.CloseClientConnections() }() })
			panic(http.ErrAbortHandler)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	r := mcpscope(t, "bench", "--format", "json", "--requests", "100000", "--concurrency", "4", "tools/call", `{"name":"test_simple_text"}`, srv.URL+u.Path)
	r.mustExit(t, ExitConnection)
	got := benchFiguresOf(t, r)
	if got.OK == 0 || got.Completed >= 100000 || got.kindCount("connection") == 0 {
		t.Errorf("want some calls ok, then the run stopped on a lost connection: %+v", got)
	}
}

// --rate through the command line: every call starts, as many as the
// schedule had due; the text summary says so.
func TestBenchRateFromTheCommandLine(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, append([]string{"bench", "--format", "json", "--rate", "50", "--requests", "10", "ping"}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	got := benchFiguresOf(t, r)
	if got.Started != 10 || got.Scheduled != 10 || got.OK != 10 {
		t.Errorf("want 10 started of 10 scheduled: %+v", got)
	}
	r = mcpscope(t, append([]string{"bench", "--format", "text", "--rate", "50", "--requests", "10", "ping"}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	for _, line := range []string{"rate         50/s at most\n", "started      10 of 10 scheduled\n", " ok/s\n"} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("text summary lacks %q:\n%s", line, r.stdout)
		}
	}
}

// Non-finite and non-positive rates are refused before anything starts.
func TestBenchRateRefused(t *testing.T) {
	t.Parallel()
	for _, rate := range []string{"NaN", "Inf", "-Inf", "0", "-1"} {
		r := mcpscope(t, "bench", "--rate", rate, "ping", "--", "true")
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--rate") {
			t.Errorf("--rate %s: exit %d, stderr %q", rate, r.code, r.stderr)
		}
	}
}

// A call that makes the server ask a question is answered every time from
// an answers file of two answers; without one, the question is its own
// kind of error, not a cancellation.
func TestBenchAnswersQuestionsEveryCall(t *testing.T) {
	t.Parallel()
	answers := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(answers, []byte("elicitation:\n  - action: accept\n    content: {n: x}\n  - action: accept\n    content: {n: y}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	argv, env := stubArgv(t, "bench-asks")
	target := append([]string{"--env", env, "--"}, argv...)
	got, _ := benchRun(t, ExitOK, append([]string{"--answers", answers, "--requests", "25", "--concurrency", "3", "ping"}, target...)...)
	if got.OK != 25 {
		t.Errorf("want 25 calls answered from 2 answers: %+v", got)
	}
	r := mcpscope(t, append([]string{"bench", "--format", "json", "--requests", "25", "--concurrency", "1", "ping"}, target...)...)
	nog := benchFiguresOf(t, r)
	if r.code == ExitOK || nog.kindCount("question unanswered") != 1 || nog.kindCount("canceled") != 0 || !strings.Contains(r.stderr, "--answers") {
		t.Errorf("exit %d, %+v\nstderr %s", r.code, nog, r.stderr)
	}
}

// At a terminal, the live line owns stderr: every other line (here
// --trace's) first erases it, so none is glued to it, and the summary
// comes after the line is cleared.
func TestBenchLiveLineAtATerminal(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	var out bytes.Buffer
	errt := &stdoutTerminal{width: 100}
	// Ten calls at 10/s last about a second: the live line is drawn
	// several times, between trace lines.
	args := append([]string{"bench", "--trace", "--format", "json", "--rate", "10", "--requests", "10", "--concurrency", "1", "ping"}, demoServer(t)...)
	code := Execute(ctx, args, strings.NewReader(""), &out, errt)
	stderr := errt.String()
	if code != ExitOK {
		t.Fatalf("exit %d\nstderr %q", code, stderr)
	}
	if !strings.Contains(stderr, " done  ") {
		t.Fatalf("no live line on a terminal's stderr: %q", stderr)
	}
	traced := 0
	for _, line := range strings.Split(stderr, "\n") {
		// What stays on screen of a line is what follows its last \r.
		shown := strings.TrimPrefix(line[strings.LastIndex(line, "\r")+1:], "\x1b[K")
		if strings.Contains(shown, "request ping") && strings.Contains(shown, " done  ") {
			t.Errorf("a trace line glued to the live line: %q", line)
		}
		if strings.Contains(shown, "request ping") {
			traced++
		}
	}
	if traced != 10 || !strings.HasSuffix(stderr, "\r\x1b[K") {
		t.Errorf("%d trace lines (want 10), the live line not cleared at the end: %q", traced, stderr)
	}
}
