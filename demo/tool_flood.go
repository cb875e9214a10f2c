package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Flood modes of misbehave: log lines at full speed, on the control
// channel (notifications/message: control-stream frames on MCP-Flow,
// stdout lines on stdio) or as log datagrams (notifications/message where
// the transport has no datagrams).
const (
	ModeNotificationFlood = "notification_flood"
	ModeDatagramFlood     = "datagram_flood"
)

// Bounds of the flood modes.
const (
	// DefaultFloodCount is how many lines a flood sends when neither count
	// nor duration_ms is given.
	DefaultFloodCount = 50000
	// MaxFloodCount is the most lines one flood sends.
	MaxFloodCount = 10_000_000
	// MaxFloodDuration is the longest duration_ms a flood accepts.
	MaxFloodDuration = 10 * time.Minute
	// FloodLogger is the logger name of every line a flood sends.
	FloodLogger = "flood"
	// floodLevel is the level of a flood's numbered lines.
	floodLevel = "info"
	// floodClockEvery is how many lines go out between two looks at the clock.
	floodClockEvery = 256
)

// FloodReport says how a flood went: the result's structuredContent when
// it ends by itself, the data of its last log line (level notice) when it
// is cancelled.
type FloodReport struct {
	Mode      string  `json:"mode"`
	Sent      int     `json:"sent"`              // lines sent, numbered 1…Sent in their data
	Seconds   float64 `json:"seconds"`           // from the start to the last line
	PerSecond float64 `json:"messagesPerSecond"` // Sent / Seconds
	Cancelled bool    `json:"cancelled,omitempty"`
}

// floodArgs are the arguments of the flood modes.
type floodArgs struct {
	Count      int `json:"count"`
	DurationMs int `json:"duration_ms"`
}

// limits checks the arguments and returns how many lines to send at most
// and for how long (0: no time limit).
func (a floodArgs) limits() (int, time.Duration, error) {
	if a.Count < 0 || a.Count > MaxFloodCount {
		return 0, 0, invalidParams("count must be between 1 and %d, got %d", MaxFloodCount, a.Count)
	}
	d := time.Duration(a.DurationMs) * time.Millisecond
	if a.DurationMs < 0 || d > MaxFloodDuration {
		return 0, 0, invalidParams("duration_ms must be between 1 and %d, got %d", MaxFloodDuration.Milliseconds(), a.DurationMs)
	}
	switch {
	case a.Count > 0:
		return a.Count, d, nil
	case d > 0:
		return MaxFloodCount, d, nil
	}
	return DefaultFloodCount, 0, nil
}

// flood sends log lines numbered 1, 2, … (the number is the line's data)
// as fast as the transport takes them, until count lines went out,
// duration passed or the call is cancelled, and reports the rate reached.
// Cancelled, it sends one last line (level notice) holding its FloodReport
// before the call is answered.
func flood(ctx context.Context, c *Call, mode string, a floodArgs) (*ToolResult, error) {
	count, duration, err := a.limits()
	if err != nil {
		return nil, err
	}
	if floor := c.conn.logLevel(); levelIndex(floodLevel) < floor {
		return nil, invalidParams("the client asked for log lines of level %s and above (logging/setLevel); a flood's lines are %s",
			logLevels[floor], floodLevel)
	}
	emit, what := c.Emit, "log datagrams"
	if mode == ModeNotificationFlood {
		emit = levelFilter{Emitter: notificationLog{Emitter: c.Emit, ctx: ctx, conn: c.conn}, c: c.conn}
		what = mcp.MethodNotifyMessage
	}
	start := time.Now()
	report := func(sent int) FloodReport {
		secs := time.Since(start).Seconds()
		r := FloodReport{Mode: mode, Sent: sent, Seconds: secs}
		if secs > 0 {
			r.PerSecond = float64(sent) / secs
		}
		return r
	}
	done := ctx.Done()
	sent := 0
	for sent < count {
		select {
		case <-done:
			r := report(sent)
			r.Cancelled = true
			_ = emit.Log("notice", FloodLogger, r)
			return nil, ctx.Err()
		default:
		}
		if duration > 0 && sent%floodClockEvery == 0 && time.Since(start) >= duration {
			break
		}
		if err := emit.Log(floodLevel, FloodLogger, sent+1); err != nil {
			return nil, rpcError(mcp.CodeInternalError, nil, "the flood stopped after %d of %d lines: %v", sent, count, err)
		}
		sent++
	}
	r := report(sent)
	text := fmt.Sprintf("flood sent: %d %s in %s (%.0f messages/s)", sent, what, time.Duration(r.Seconds*float64(time.Second)).Round(time.Millisecond), r.PerSecond)
	return &ToolResult{Content: []any{Text(text)}, StructuredContent: r}, nil
}

// logLevel returns the index in logLevels of the least severe level the
// client wants (logging/setLevel; 0 until it asks).
func (c *Conn) logLevel() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.level
}

// notificationLog sends log lines as notifications/message on the
// connection's control channel, as messages of the call (see sendFor),
// whatever the transport's emitter does with them; the rest of the emitter
// is the call's.
type notificationLog struct {
	Emitter
	ctx  context.Context
	conn *Conn
}

// Log sends one notifications/message.
func (e notificationLog) Log(level, logger string, data any) error {
	send := func(m *jsonrpc.Message) error { return e.conn.sendFor(e.ctx, m) }
	return NotificationEmitter{Send: send}.Log(level, logger, data)
}
