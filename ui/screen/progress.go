package screen

import (
	"time"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// AskProgress is the call option of every request the UI sends on the
// user's behalf: the request carries _meta.progressToken (its own id), so
// that a server reports progress. The notifications/progress frames it
// sends are captured, and the traffic pane links them to the request.
func AskProgress() client.CallOption {
	return client.WithProgress(func(mcp.ProgressNotificationParams) {})
}

// ProgressState is the live state of one request the UI sent, as the
// root's progress board reads it from the capture: the latest progress
// report (MCP notifications/progress or an MCP-Flow progress datagram),
// the time it has run, its log lines and whether it was cancelled or
// answered. Host.Progress returns it; a screen waiting for an answer
// shows it. Every text in it is safe to print on one line.
type ProgressState struct {
	// Method is the request's method, with the tool's name for
	// tools/call ("tools/call analyze").
	Method string
	// Sent is when the request was captured.
	Sent time.Time
	// Elapsed runs from Sent to the answer or the cancellation, or to the
	// newest frame or refresh while the request runs (a screen that
	// ticks on its own may show time.Since(Sent) instead).
	Elapsed time.Duration
	// Reports is how many progress reports arrived; with none, Progress,
	// Total and Message are empty.
	Reports int
	// Progress and Total are the latest report's; Total is 0 when the
	// server gave none (the progress is a count without an end).
	Progress, Total float64
	// Message is the latest report's message.
	Message string
	// Logs are the newest log lines linked to the request (MCP-Flow log
	// datagrams name their request; MCP's notifications/message do not),
	// oldest first, at most MaxProgressLogs.
	Logs []string
	// Cancelled says a cancellation of the request was sent or received;
	// AfterCancel counts the progress reports that came after it.
	Cancelled   bool
	AfterCancel int
	// Answered says the response (a result or an error) arrived.
	Answered bool
}

// MaxProgressLogs is the most log lines a ProgressState carries.
const MaxProgressLogs = 5
