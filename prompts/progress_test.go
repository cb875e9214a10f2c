package prompts_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The bar fills by current/total; without a total there is no bar.
func TestProgressGolden(t *testing.T) {
	var out []string
	for _, c := range []struct {
		p    mcp.InteractionProgress
		w, h int
	}{
		{mcp.InteractionProgress{Current: 0, Total: 5, Message: "Where to?"}, 50, 2},
		{mcp.InteractionProgress{Current: 2, Total: 5, Message: "Choose a class"}, 50, 2},
		{mcp.InteractionProgress{Current: 5, Total: 5}, 50, 2},
		{mcp.InteractionProgress{Current: 7, Total: 5, Message: "more than the total"}, 50, 1},
		{mcp.InteractionProgress{Current: 3, Message: "no total"}, 50, 2},
		{mcp.InteractionProgress{Current: 1, Total: 3, Message: "a narrow window wraps the message"}, 20, 3},
	} {
		out = append(out, prompts.NewProgress(c.p, true).Render(c.w, c.h), "--")
	}
	golden(t, "progress", strings.Join(out, "\n"))
}

// Fraction is within [0, 1] and unknown without a usable total.
func TestProgressFraction(t *testing.T) {
	for _, c := range []struct {
		cur, total, want float64
		ok               bool
	}{
		{2, 5, 0.4, true},
		{9, 3, 1, true},
		{-1, 3, 0, true},
		{1, 0, 0, false},
		{1, -2, 0, false},
		{1, math.NaN(), 0, false},
		{math.NaN(), 2, 0, false},
		{1, math.Inf(1), 0, false},
	} {
		f, ok := prompts.NewProgress(mcp.InteractionProgress{Current: c.cur, Total: c.total}, true).Fraction()
		if f != c.want || ok != c.ok {
			t.Errorf("%v/%v: Fraction = %v, %v; want %v, %v", c.cur, c.total, f, ok, c.want, c.ok)
		}
	}
}

// The countdown shows whole seconds left, turns to its warning style
// under 20 s, and says when the time is up.
func TestCountdownRender(t *testing.T) {
	expires := testNow.Add(83 * time.Second)
	c := prompts.NewCountdown(expires, false)
	st := prompts.DefaultStyles(false)
	for _, s := range []struct {
		at   time.Duration // before the expiry
		want string
	}{
		{83*time.Second + 400*time.Millisecond, st.Muted.Render("expires in 1m23s")},
		{20 * time.Second, st.Muted.Render("expires in 20s")},
		{19*time.Second + 900*time.Millisecond, st.Warning.Render("expires in 19s")},
		{time.Second, st.Warning.Render("expires in 1s")},
		{0, st.Warning.Render("expired")},
		{-time.Minute, st.Warning.Render("expired")},
	} {
		if got := c.Render(expires.Add(-s.at)); got != s.want {
			t.Errorf("%v before: Render = %q, want %q", s.at, got, s.want)
		}
	}
	if got := prompts.NewCountdown(time.Time{}, false).Render(testNow); got != "" {
		t.Errorf("no expiry: Render = %q, want nothing", got)
	}
	var lines []string
	for _, left := range []time.Duration{time.Hour + 2*time.Second, 83 * time.Second, 45 * time.Second, 19 * time.Second, 0} {
		lines = append(lines, c.Render(expires.Add(-left)))
	}
	golden(t, "countdown", goldentest.Plain(strings.Join(lines, "\n")))
}

// The tick re-arms while time is left, and only for its own countdown.
func TestCountdownTick(t *testing.T) {
	c := prompts.NewCountdown(time.Now().Add(time.Hour), true)
	msg := c.Tick()()
	tick, ok := msg.(prompts.CountdownTickMsg)
	if !ok {
		t.Fatalf("Tick gave %T, want CountdownTickMsg", msg)
	}
	if c.Update(tick) == nil {
		t.Errorf("a tick with time left did not re-arm")
	}
	other := prompts.NewCountdown(time.Now().Add(time.Hour), true)
	if other.Update(tick) != nil {
		t.Errorf("another countdown's tick re-armed this one")
	}
	tick.Time = c.ExpiresAt().Add(time.Second)
	if c.Update(tick) != nil {
		t.Errorf("a tick after the expiry re-armed")
	}
}
