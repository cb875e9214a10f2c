package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/look"
)

// facts are what the status bar says of a replay: where it stands on the
// timeline and how it plays.
func (r *Replay) facts() []string {
	pos := r.player.Position()
	speed := speedName(pos.Speed) // the speed space plays at, whatever the state
	state := "⏸ paused · " + speed
	switch {
	case pos.Seeking:
		state = "seeking… · " + speed
	case pos.Playing:
		state = "▶ " + speed
	case pos.Done:
		state = "■ end · " + speed
	}
	frames := fmt.Sprintf("frame %s", strconv.FormatInt(pos.Frames, 10))
	if pos.Total >= 0 {
		frames += "/" + strconv.FormatInt(pos.Total, 10)
	}
	parts := []string{"REPLAY " + state, frames, "+" + elapsed(pos.At.Sub(pos.Start)), pos.At.Local().Format("2006-01-02 15:04:05.000")}
	if t := r.player.Header().Transport; t != "" {
		parts = append(parts, t)
	}
	if pos.Problem != nil {
		parts = append(parts, look.OneLine(pos.Problem.Error()))
	}
	return parts
}

// speedName names a speed: "1×", "10×", "at once".
func speedName(s float64) string {
	if s == recordings.SpeedAtOnce {
		return "at once"
	}
	return fmt.Sprintf("%g×", s)
}

// elapsed renders a recorded duration to the millisecond: "12.345s",
// "3m04.120s", "1h02m03.000s".
func elapsed(d time.Duration) string {
	d = max(d, 0).Round(time.Millisecond)
	h, m := d/time.Hour, d%time.Hour/time.Minute
	s := float64(d%time.Minute) / float64(time.Second)
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%06.3fs", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%06.3fs", m, s)
	}
	return fmt.Sprintf("%.3fs", s)
}
