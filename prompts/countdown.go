package prompts

import (
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
)

// CountdownWarning is how close to the expiry the countdown turns to its
// warning style.
const CountdownWarning = 20 * time.Second

var countdownIDs atomic.Int64

// CountdownTickMsg is the once-a-second tick of a Countdown.
type CountdownTickMsg struct {
	ID   int64     // the countdown it belongs to
	Time time.Time // when it fired
}

// Countdown shows the time left before an interaction expires ("expires
// in 1m23s"), in the warning style for its last 20 seconds. Render is
// pure given a now; Tick and Update keep a once-a-second redraw going
// while there is time left.
type Countdown struct {
	id        int64
	expiresAt time.Time
	styles    Styles
}

// NewCountdown returns a countdown to expiresAt; a zero time shows
// nothing.
func NewCountdown(expiresAt time.Time, dark bool) *Countdown {
	return &Countdown{id: countdownIDs.Add(1), expiresAt: expiresAt, styles: DefaultStyles(dark)}
}

// SetExpiresAt moves the expiry (a server's timeout warning may carry a
// new one).
func (c *Countdown) SetExpiresAt(t time.Time) { c.expiresAt = t }

// ExpiresAt returns the expiry; zero when unknown.
func (c *Countdown) ExpiresAt() time.Time { return c.expiresAt }

// SetDark switches the styles between dark and light backgrounds.
func (c *Countdown) SetDark(dark bool) { c.styles = DefaultStyles(dark) }

// Remaining is the time left at now, never negative.
func (c *Countdown) Remaining(now time.Time) time.Duration {
	if c.expiresAt.IsZero() {
		return 0
	}
	return max(0, c.expiresAt.Sub(now))
}

// Tick returns the command that fires this countdown's next tick in a
// second.
func (c *Countdown) Tick() tea.Cmd {
	id := c.id
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return CountdownTickMsg{ID: id, Time: t} })
}

// Update re-arms the tick on each of this countdown's ticks while time is
// left; other messages are ignored.
func (c *Countdown) Update(msg tea.Msg) tea.Cmd {
	t, ok := msg.(CountdownTickMsg)
	if !ok || t.ID != c.id || c.Remaining(t.Time) <= 0 {
		return nil
	}
	return c.Tick()
}

// Render draws "expires in 1m23s" (whole seconds, rounded down) at now,
// "expired" once the time is up, and "" without an expiry.
func (c *Countdown) Render(now time.Time) string {
	if c.expiresAt.IsZero() {
		return ""
	}
	left := c.Remaining(now)
	switch {
	case left <= 0:
		return c.styles.Warning.Render("expired")
	case left < CountdownWarning:
		return c.styles.Warning.Render("expires in " + left.Truncate(time.Second).String())
	}
	return c.styles.Muted.Render("expires in " + left.Truncate(time.Second).String())
}
