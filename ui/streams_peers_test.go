package ui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/mcp"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// sseRowSeen is an SSE stream's row as the streams pane shows it.
type sseRowSeen struct {
	events int
	bytes  float64 // as shown: rounded to a tenth of its unit
	state  string
}

// sseRowOf finds the row of the SSE stream that carries what ("tools/call
// #3", "GET stream") on screen s.
func sseRowOf(s, what string) (sseRowSeen, bool) {
	re := regexp.MustCompile(regexp.QuoteMeta(what) + `\s+(\d+)\s+([0-9.]+) (B|KiB|MiB|GiB)\s+\S+\s+(open|done|broken|cancelled)\b`)
	m := re.FindStringSubmatch(s)
	if m == nil {
		return sseRowSeen{}, false
	}
	events, _ := strconv.Atoi(m[1])
	n, _ := strconv.ParseFloat(m[2], 64)
	for _, unit := range []string{"KiB", "MiB", "GiB"} {
		if m[3] == "B" {
			break
		}
		n *= 1024
		if m[3] == unit {
			break
		}
	}
	return sseRowSeen{events: events, bytes: n, state: m[4]}, true
}

// waitSSERow waits for the row of the SSE stream that carries what to
// satisfy ok, and returns it.
func (p *screenProbe) waitSSERow(t *testing.T, what, state string, ok func(sseRowSeen) bool) sseRowSeen {
	t.Helper()
	var row sseRowSeen
	p.waitScreen(t, "the SSE stream "+what+" "+state, func(s string) bool {
		r, found := sseRowOf(s, what)
		row = r
		return found && r.state == state && ok(r)
	})
	return row
}

// subscriptionOn matches the composer's line on a live subscription.
var subscriptionOn = regexp.MustCompile(`listening on subscription (\d+) · acknowledged · (\d+) notification`)

// TestHTTPConformanceListenIsALiveStream sends subscriptions/listen for the
// watched resource of the Go SDK conformance server (stateless 2026-07-28
// over Streamable HTTP) from the composer. The composer counts the
// acknowledged subscription's notifications; once it is closed the
// subscription lives on: the streams pane shows its SSE answer as an open
// "subscription" row whose events and bytes grow with each update the
// server sends (every 3 s), the traffic pane shows the updates as frames of
// the subscription, and the cancel key on its request closes the stream,
// which the row then reads as cancelled.
func TestHTTPConformanceListenIsALiveStream(t *testing.T) {
	t.Parallel()
	f := startHTTPFlow(t, peertest.StartGoSDKConformanceHTTP(t, true), mcphttp.ModeAuto, client.Options{}, nil)
	f.probe.waitText(t, "Streamable HTTP", "2026-07-28 · server/discover")
	sendKeys(f.tm, ":")
	f.probe.waitText(t, "Compose · pick a method")
	composeSend(f.tm, mcp.MethodSubscriptionsListen)
	f.probe.waitText(t, "Compose · request "+mcp.MethodSubscriptionsListen)
	sendKeys(f.tm, "end", "left") // into {|}
	sendText(f.tm, `"notifications": {"resourceSubscriptions": ["test://watched-resource"]}`)
	f.tm.Send(screentest.Ctrl('s'))
	var id string
	f.probe.waitScreen(t, "an update on the acknowledged subscription", func(s string) bool {
		m := subscriptionOn.FindStringSubmatch(s)
		if m == nil || m[2] == "0" {
			return false
		}
		id = m[1]
		return true
	})
	sendKeys(f.tm, "esc", "esc", "esc") // the editor, the picker, closed
	f.probe.waitScreen(t, "the composer closed", func(s string) bool { return !strings.Contains(s, "Compose ·") })

	what := "subscription #" + id
	first := f.probe.waitSSERow(t, what, "open", func(r sseRowSeen) bool { return r.events >= 2 }) // the acknowledgement and an update
	f.probe.waitSSERow(t, what, "open", func(r sseRowSeen) bool { return r.events > first.events && r.bytes > first.bytes })
	f.probe.waitScreen(t, "two updates in the traffic as frames of the subscription", func(s string) bool {
		return strings.Count(s, mcp.MethodNotifyResourceUpdated+" · "+mcp.MethodSubscriptionsListen) >= 2
	})

	sendKeys(f.tm, "/")
	sendText(f.tm, mcp.MethodSubscriptionsListen)
	sendKeys(f.tm, "enter", "home")
	f.probe.waitText(t, "request · id "+id) // its detail
	sendKeys(f.tm, "c")
	f.probe.waitSSERow(t, what, "cancelled", func(sseRowSeen) bool { return true })
	f.probe.waitText(t, "to cancel "+mcp.MethodSubscriptionsListen+" (id "+id+")")
	f.quit()
}

// streamsPaneOf cuts the streams pane out of screen s: the lines from its
// title to the hint bar, left of the column beside it, the blank lines
// below its rows left out.
func streamsPaneOf(t *testing.T, s string) []string {
	t.Helper()
	var pane []string
	for _, l := range strings.Split(s, "\n") {
		left, _, _ := strings.Cut(l, "│")
		switch {
		case strings.HasPrefix(left, " SSE streams ·"):
			pane = []string{left}
		case strings.HasPrefix(left, "? help"):
			for len(pane) > 0 && strings.TrimSpace(pane[len(pane)-1]) == "" {
				pane = pane[:len(pane)-1]
			}
			return pane
		case pane != nil:
			pane = append(pane, left)
		}
	}
	t.Fatalf("no streams pane on screen:\n%s", s)
	return nil
}

// maskSSECells replaces the volatile cells of the SSE rows in pane (its
// title first, then the column header) with '*': every last event id (the
// server draws them at random), and the events and bytes of the rows that
// carry what (the server's own notifications, whenever it sends them).
func maskSSECells(pane []string, volatile ...string) string {
	w := len([]rune(pane[0]))
	c := sseColumnsFor(w)
	events := 14 + 1 + c.what + 1
	lastID := events + 7 + 1 + 10 + 1
	out := slices.Clone(pane)
	for i, l := range out[2:] {
		r := []rune(l)
		if strings.TrimSpace(l) == "" || len(r) < lastID+12 {
			continue
		}
		mask := func(from, n int) { copy(r[from:from+n], []rune(strings.Repeat("*", n))) }
		mask(lastID, 12)
		for _, v := range volatile {
			if strings.Contains(l, v) {
				mask(events, 7+1+10)
			}
		}
		out[i+2] = string(r)
	}
	return strings.Join(out, "\n")
}

// callStream matches the streams pane's row of a tools/call answer.
var callStream = regexp.MustCompile(`tools/call #\d+`)

// The streams pane's run of trigger-long-running-operation reports its
// progress every half second for two minutes: it is still in flight
// however slow the machine, until the test cancels it.
const (
	streamsRunDuration = 120
	streamsRunSteps    = 240
)

// TestHTTPTSStreamsPane calls the TypeScript reference server's
// trigger-long-running-operation over Streamable HTTP, asking for
// progress: the streams pane lists the session's standalone GET stream,
// open, and the call's SSE answer, whose events grow with each progress
// report; the cancel key on the call's request ends it, and its row then
// reads cancelled. The pane at the end is a golden file (event ids, what
// the GET stream carried and what the call's answer carried until the
// cancel, masked).
func TestHTTPTSStreamsPane(t *testing.T) {
	t.Parallel()
	url := peertest.StartTSStreamableHTTP(t).URL
	r := startLongRunningOn(t, httpTransport(url, mcphttp.ModeAuto), client.Options{}, streamsRunDuration, streamsRunSteps)
	r.probe.waitSSERow(t, "GET stream", "open", func(sseRowSeen) bool { return true })
	var call string
	r.probe.waitScreen(t, "the call's SSE answer", func(s string) bool { call = callStream.FindString(s); return call != "" })
	first := r.probe.waitSSERow(t, call, "open", func(sseRowSeen) bool { return true })
	r.probe.waitScreen(t, "more events on the call's answer", func(s string) bool {
		row, ok := sseRowOf(s, call)
		return ok && row.events > first.events && row.bytes > first.bytes
	})
	r.cancelCall(streamsRunSteps)
	ended := r.probe.waitSSERow(t, call, "cancelled", func(sseRowSeen) bool { return true })
	if ended.events <= first.events {
		t.Errorf("the cancelled answer counts %d events, no more than the %d it had open", ended.events, first.events)
	}
	s := r.probe.waitText(t, mcp.MethodNotifyCancelled+" "+markCancelled)
	golden(t, "streams_http_ts", maskSSECells(streamsPaneOf(t, s), "GET stream", call))
	r.quit()
}
