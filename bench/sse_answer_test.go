//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
	"github.com/mcpscope/mcpscope/ui"
)

// The SSE answer workload: one tools/call answered with an event stream
// of sseAnswerSize bytes: notifications/message events of about 64 KiB
// each (their data a log line of sseNoteText bytes), then the response.
const (
	sseAnswerSize = 256 << 20
	sseNoteText   = 64<<10 - 200
)

// sseNote is one notification event of the answer, as the server writes
// it.
var sseNote = "event: message\ndata: " +
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"` +
	strings.Repeat("0123456789abcdef", sseNoteText/16) + `"}}` + "\n\n"

// sseNotes is how many notifications the answer carries.
var sseNotes = sseAnswerSize / len(sseNote)

// sseAnswerServer serves, on a loopback port, an MCP endpoint that answers
// every POST of a request with one SSE stream (sseNotes notifications,
// then the response to the request), and returns its URL. It writes the
// same bytes for every reader, from memory.
func sseAnswerServer(b *testing.B) string {
	b.Helper()
	note := []byte(sseNote)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for range sseNotes {
			if _, err := w.Write(note); err != nil {
				return
			}
		}
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", req.ID)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	b.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// sseAnswerCall is the request the answer answers.
func sseAnswerCall(b *testing.B) *jsonrpc.Message {
	b.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(1), mcp.MethodToolsCall, json.RawMessage(`{"name":"stream_logs"}`))
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// mcpscopeSSEAnswer reads one answer through mcpscope's HTTP transport as
// a session does: every event a frame of a capture store with the default
// bounds, under the soft memory limit the TUI sets for it
// (ui.LimitResident), every message decoded and delivered. It
// returns the wall time from the POST to the response, and adds to kept
// the bytes of events the store holds whole once the answer is in.
func mcpscopeSSEAnswer(b *testing.B, url string, kept *int64) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	store := capture.NewStore(capture.DefaultConfig())
	defer ui.LimitResident(store)() // the memory limit the TUI holds its store under
	tr, err := mcphttp.New(mcphttp.Config{URL: url, Mode: mcphttp.ModeStreamable, Sink: store})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	var notes atomic.Int64
	answered := make(chan *jsonrpc.Message, 1)
	deliver := func(m *jsonrpc.Message) {
		switch {
		case m.Method == mcp.MethodNotifyMessage:
			notes.Add(1)
		case m.IsResponse() || m.Violation != nil:
			answered <- m
		}
	}
	if err := tr.Start(ctx, deliver); err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	if err := tr.Send(ctx, sseAnswerCall(b)); err != nil {
		b.Fatalf("mcpscope POST: %v", err)
	}
	select {
	case m := <-answered:
		d := time.Since(begin)
		if m.Violation != nil || notes.Load() != int64(sseNotes) {
			b.Fatalf("mcpscope read %d notifications of %d, answer %v", notes.Load(), sseNotes, m.Violation)
		}
		*kept += store.Stats().RawBytes
		return d
	case <-ctx.Done():
		b.Fatalf("mcpscope SSE answer: %v", ctx.Err())
	}
	return 0
}

// bareSSEAnswer reads one answer with net/http alone: the POST, then the
// body drained through a 1 MiB buffer, looking at nothing; or, keeping,
// read into fresh buffers of 256 KiB that are kept until the answer is in,
// as any reader that holds what it reads must (mcpscope's store holds
// every event in the buffer it was read into).
func bareSSEAnswer(b *testing.B, url string, keeping bool) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), flowHangGuard)
	defer cancel()
	body, err := sseAnswerCall(b).EncodeJSON()
	if err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rsp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatalf("bare POST: %v", err)
	}
	defer rsp.Body.Close()
	var n int64
	if keeping {
		n, err = keepAll(rsp.Body)
	} else {
		n, err = io.CopyBuffer(io.Discard, rsp.Body, make([]byte, 1<<20))
	}
	d := time.Since(begin)
	if err != nil || n < int64(sseNotes*len(sseNote)) {
		b.Fatalf("bare reader read %d bytes: %v", n, errors.Join(err, errShortAnswer))
	}
	return d
}

// keepAll reads r to its end into fresh buffers of 256 KiB, kept until it
// returns, and returns how many bytes it read.
func keepAll(r io.Reader) (int64, error) {
	var kept [][]byte
	var n int64
	for {
		buf := make([]byte, 256<<10)
		full, err := io.ReadFull(r, buf)
		kept = append(kept, buf[:full])
		n += int64(full)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// errShortAnswer says an SSE answer ended short.
var errShortAnswer = errors.New("the SSE answer ended short")

// BenchmarkSSEAnswerVsBareReader compares reading a 256 MiB SSE answer to
// one tools/call over loopback HTTP (about 4,000 notifications/message
// events of 64 KiB, then the response, from a server in this process that
// writes them from memory): mcpscope's HTTP transport, each event a frame
// of a capture store with the default bounds and each message decoded and
// delivered, versus a bare net/http reader draining the same bytes from
// the same server, in turn in the same run. "ratio" is mcpscope ÷ bare in
// wall time; CPU time per GiB is the whole process's (the server's
// writing included); MB are 10^6 bytes.
//
// Memory: "*-heap-MiB" is the peak HeapInuse+StackInuse of this process
// during each reader's answers: mcpscope's is bounded by its capture
// store (capture.DefaultConfig's MemoryBound, about 300 MiB, whatever the
// answer's length; the TUI's memory limit keeps the runtime from letting
// the heap grow to twice that), its reading by one event. "kept-%" is how much of an
// answer's bytes the store holds in whole frames once it is in (the rest,
// the oldest events, kept their metadata and lost their bytes to the
// store's budget).
func BenchmarkSSEAnswerVsBareReader(b *testing.B) {
	url := sseAnswerServer(b)
	var ourCost, bareCost, keepingCost transferCost
	var kept int64
	readers := []func(){
		func() { ourCost.measured(b, func() time.Duration { return mcpscopeSSEAnswer(b, url, &kept) }) },
		func() { bareCost.measured(b, func() time.Duration { return bareSSEAnswer(b, url, false) }) },
		func() { keepingCost.measured(b, func() time.Duration { return bareSSEAnswer(b, url, true) }) },
	}
	runs := 0
	for b.Loop() {
		for i := range readers {
			readers[(runs+i)%len(readers)]() // each first in turn
		}
		runs++
	}
	answered := int64(sseNotes*len(sseNote)) * int64(runs)
	reportTransfers(b, answered, ourCost, bareCost, 0)
	b.ReportMetric(100*float64(kept)/float64(answered), "kept-%")
	b.ReportMetric(float64(answered)/1e6/keepingCost.wall.Seconds(), "bare-keeping-MB/s")
	b.ReportMetric(keepingCost.wall.Seconds()/ourCost.wall.Seconds(), "ratio-keeping")
	b.ReportMetric(keepingCost.cpu.Seconds()/(float64(answered)/(1<<30)), "bare-keeping-cpu-s/GiB")
}
