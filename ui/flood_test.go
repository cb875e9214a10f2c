package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// floodProbe is a screenProbe that also counts the renders (View calls)
// and the refreshes the program went through, and can wait for the first
// render whose screen shows a key's effect.
type floodProbe struct {
	*screenProbe
	views, refreshes atomic.Int64

	mu       sync.Mutex
	want     func(screen string) bool // the effect awaited; nil when none
	answered chan time.Time           // when a render first showed it
}

// newFloodProbe wraps the model m.
func newFloodProbe(m *Model) *floodProbe {
	return &floodProbe{screenProbe: &screenProbe{Model: m}, answered: make(chan time.Time, 1)}
}

// View draws the model, counts the render and reports an awaited effect.
// A screen held while a refresh's pass is read is no render: the same
// screen as the last one, its effects already looked for.
func (p *floodProbe) View() tea.View {
	if p.hold {
		return p.screenProbe.View()
	}
	v := p.screenProbe.View()
	p.views.Add(1)
	p.mu.Lock()
	if p.want != nil && p.want(p.screenText()) {
		p.want = nil
		p.answered <- time.Now()
	}
	p.mu.Unlock()
	return v
}

// Update counts refreshes and keeps the probe as the program's model.
func (p *floodProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(refreshMsg); ok {
		p.refreshes.Add(1)
	}
	_, cmd := p.screenProbe.Update(msg)
	return p, cmd
}

// press sends key to the program and returns when a render shows its
// effect, with the time from the send to that render; the wait is bounded
// by the hang guard only.
func (p *floodProbe) press(t testing.TB, send func(tea.Msg), key string, effect func(string) bool) time.Duration {
	t.Helper()
	p.mu.Lock()
	p.want = effect
	p.mu.Unlock()
	sent := time.Now()
	send(keyPress(key))
	select {
	case at := <-p.answered:
		return at.Sub(sent)
	case <-time.After(guard.Hang):
		t.Fatalf("key %q: its effect never showed; last screen:\n%s", key, p.screenText())
		return 0
	}
}

// floodLink dials the demo over MCP-Flow like the real demo does and
// watches every frame the transport reports on its way to the store: the
// numbered flood lines, the flood's last report and its "Cancelled" answer.
type floodLink struct {
	d *flowtest.Demo

	mu      sync.Mutex
	session *client.Session
	frames  uint64 // every frame the transport reported
	lines   int    // numbered flood lines, in order
	gap     string // the first flood line out of order
	report  *demo.FloodReport
	over    chan struct{} // closed when the Cancelled answer arrived
}

// newFloodLink watches the connections made to d.
func newFloodLink(d *flowtest.Demo) *floodLink { return &floodLink{d: d, over: make(chan struct{})} }

// dial is the Dialer: the store's sink, behind a counter.
func (l *floodLink) dial(sink capture.Sink) (Link, error) {
	tr, err := l.d.Transport(capture.Tee(capture.SinkFunc(l.see), sink))
	if err != nil {
		return Link{}, err
	}
	s := client.New(tr, client.Options{})
	l.mu.Lock()
	l.session = s
	l.mu.Unlock()
	return Link{Transport: tr, Session: s}, nil
}

// see notes one frame before the store gets it.
func (l *floodLink) see(f *capture.Frame) uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frames++
	m := f.Msg
	switch {
	case m == nil:
	case m.Method == mcp.MethodNotifyMessage:
		var p mcp.LoggingMessageParams
		if json.Unmarshal(m.Params, &p) != nil || p.Logger != demo.FloodLogger {
			break
		}
		if p.Level == "notice" {
			var r demo.FloodReport
			if json.Unmarshal(p.Data, &r) == nil {
				l.report = &r
			}
			break
		}
		l.lines++
		if string(p.Data) != fmt.Sprint(l.lines) && l.gap == "" {
			l.gap = fmt.Sprintf("flood line %d carries %s", l.lines, p.Data)
		}
	case m.Error != nil && m.Error.Code == demo.CodeCancelled && l.report != nil:
		select {
		case <-l.over:
		default:
			close(l.over)
		}
	}
	return 0
}

// counts returns the frames and the flood lines seen so far.
func (l *floodLink) counts() (frames uint64, lines int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frames, l.lines
}

// outOfOrder describes the first flood line out of order, or is "".
func (l *floodLink) outOfOrder() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gap
}

// flood starts a notification_flood on the UI's own session, as a user
// would from the explorer, too large to end by itself. stop cancels it
// ($/cancel), waits for the server's answer and returns the server's
// report; the flood must still have been running.
func (l *floodLink) flood(t testing.TB) (stop func() demo.FloodReport) {
	t.Helper()
	l.mu.Lock()
	s := l.session
	l.mu.Unlock()
	ctx, cancel := context.WithCancel(flowtest.Context(t))
	ended := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "misbehave",
			"arguments": map[string]any{"mode": demo.ModeNotificationFlood, "count": demo.MaxFloodCount}})
		ended <- err
	}()
	flowtest.Eventually(t, "the flood starts", func() bool { _, n := l.counts(); return n > 0 })
	return func() demo.FloodReport {
		t.Helper()
		select {
		case err := <-ended:
			t.Fatalf("the flood ended before it was cancelled: %v", err)
		default:
		}
		cancel()
		if err := <-ended; !errors.As(err, new(*client.CancelledError)) {
			t.Fatalf("the cancelled flood call returned %v", err)
		}
		select {
		case <-l.over:
		case <-time.After(guard.Hang):
			t.Fatalf("the server never answered the cancelled flood within %s", guard.Hang)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		return *l.report
	}
}

// heapInUse collects garbage and returns the heap in use.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// drainOutput throws away what the program writes to its terminal, so
// that the test's memory is the UI's, not a growing copy of the screen.
func drainOutput(t *testing.T, tm *teatest.TestModel) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			_, _ = io.Copy(io.Discard, tm.Output())
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// Budget of the store in the flood test.
const (
	floodMaxFrames  = 5000
	floodMaxBytes   = 512 << 10
	perFrameHeap    = 1 << 10  // generous bound of one held frame's metadata
	fixedHeapGrowth = 16 << 20 // transport buffers, the index, the renderer…
)

// floodMinLines is how many flood lines the flood test waits for: enough
// that a store without bounds would outgrow the heap budget (its 100,000
// frames hold about 70 MiB). Under the race detector a fifth, which the
// race run's slower messages still take well past the keys, while the run
// without it proves the bound.
var floodMinLines = guard.Flood(100_000)

// Under a flood of notifications/message over MCP-Flow, the real program
// answers every key (its effect shows on screen), renders at most about 60
// times a second whatever the frame rate, captures every message the server
// says it sent, and keeps the store and the heap within the store's budget.
func TestFloodKeepsUIResponsive(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	store := capture.NewStore(capture.Config{MaxFrames: floodMaxFrames, MaxBytes: floodMaxBytes})
	link := newFloodLink(d)
	probe := newFloodProbe(New(Config{Store: store, Dial: link.dial, Target: d.Target()}))
	tm := runProgram(t, probe, probe.Model, 100, 40) // tabs: one pane at a time
	drainOutput(t, tm)
	probe.waitText(t, "MCP-Flow READY", "Traffic ·", "· follow")
	before := heapInUse()

	stop := link.flood(t)
	views0, refreshes0, start := probe.views.Load(), probe.refreshes.Load(), time.Now()
	framesAtKeys, _ := link.counts()
	keys := 0
	press := func(key string, effect func(string) bool) {
		t.Helper()
		keys++
		probe.press(t, tm.Send, key, effect)
	}
	has := func(texts ...string) func(string) bool {
		return func(s string) bool { return lineWith(s, texts...) }
	}
	title := func(s string) string { // the title line of the pane shown
		if lines := strings.Split(s, "\n"); len(lines) > 1 {
			return lines[1]
		}
		return ""
	}
	press("tab", has("Execution streams ·"))
	press("tab", has("Datagram channels ·"))
	press("esc", has("Traffic ·", "· follow"))
	press("?", has("filter words (all must match)"))
	press("?", has("Traffic ·", "· follow"))
	press("k", func(s string) bool {
		return strings.Contains(title(s), "Traffic ·") && !strings.Contains(title(s), "follow")
	})
	press("enter", has("Detail · seq"))
	press("esc", func(s string) bool {
		return strings.Contains(title(s), "Traffic ·") && !strings.Contains(title(s), "follow")
	})
	press("f", has("Traffic ·", "· follow"))
	press("/", has("> or < · #id"))
	for _, r := range "initialize" {
		keys++
		tm.Send(keyPress(string(r)))
	}
	press("enter", has(`Traffic · filter "initialize"`))
	press("esc", has("Traffic ·", "· follow"))
	// The flood ran across the keys: frames came before the first, and
	// more come after the last (on a loaded machine the keys may all be
	// answered between two of its bursts).
	flowtest.Eventually(t, "a flood frame after the keys were answered", func() bool {
		n, _ := link.counts()
		return n > framesAtKeys
	})
	flowtest.Eventually(t, "the flood sends enough lines to outgrow the budget", func() bool {
		_, n := link.counts()
		return n >= floodMinLines
	})
	report := stop()
	elapsed := time.Since(start)
	views, refreshes := probe.views.Load()-views0, probe.refreshes.Load()-refreshes0

	// Nothing lost to a slow UI: every line the server sent was captured, in
	// order, and every frame the transport reported reached the store.
	frames, lines := link.counts()
	s := store.Stats()
	if gap := link.outOfOrder(); gap != "" || lines != report.Sent || report.Sent < floodMinLines {
		t.Fatalf("captured %d numbered flood lines (%s); the server says it sent %d", lines, gap, report.Sent)
	}
	if s.TotalFrames != frames || uint64(s.Frames)+s.Evicted != s.TotalFrames {
		t.Fatalf("the transport reported %d frames; the store saw %d, holds %d and evicted %d", frames, s.TotalFrames, s.Frames, s.Evicted)
	}

	// Renders are coalesced: at most one refresh per refreshInterval (one
	// more may have been on its way when counting began), and besides them
	// one render per key and a few others, however many frames arrive.
	maxRefreshes := int64(elapsed/refreshInterval) + 2
	if refreshes > maxRefreshes || views > maxRefreshes+int64(keys)+20 || views*10 > int64(report.Sent) {
		t.Fatalf("%d renders (%d refreshes, %d keys) for %d frames in %s: over ~60 renders/s",
			views, refreshes, keys, report.Sent, elapsed.Round(time.Millisecond))
	}

	// Memory stays within the store's budget.
	if s.Frames > floodMaxFrames || s.RawBytes+s.DecodedBytes > floodMaxBytes {
		t.Fatalf("the store holds %d frames and %d bytes, over its budget of %d frames and %d bytes", s.Frames, s.RawBytes+s.DecodedBytes, floodMaxFrames, floodMaxBytes)
	}
	after := heapInUse()
	budget := uint64(floodMaxBytes + floodMaxFrames*perFrameHeap + fixedHeapGrowth)
	if after > before && after-before > budget {
		t.Fatalf("the heap grew by %.1f MiB over the flood, over the budget of %.1f MiB", mib(after-before), mib(budget))
	}
	t.Logf("flood: %d lines at %.0f messages/s (server), %d renders (%.0f/s, %d refreshes) over %s, heap %+.1f MiB, store %d frames / %d B",
		report.Sent, report.PerSecond, views, float64(views)/elapsed.Seconds(), refreshes, elapsed.Round(time.Millisecond),
		mib(after)-mib(before), s.Frames, s.RawBytes+s.DecodedBytes)

	tm.Send(keyPress("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(guard.Hang))
}

// mib is n bytes in MiB.
func mib(n uint64) float64 { return float64(n) / (1 << 20) }
