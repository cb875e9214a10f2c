package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpscope/mcpscope/proxy"
)

// MaxCommandLine bounds one command a viewer sends: an edited or injected
// message of up to 8 MiB fits, base64 and all.
const MaxCommandLine = 12 << 20

// maxHubLine bounds one hub line a viewer reads: the paused messages it
// lists are held whole.
const maxHubLine = 256 << 20

// Operations of a command.
const (
	opPause  = "pause"  // Filters: the pause filters from now on
	opDecide = "decide" // Held, Drop, Body: a paused message goes on, edited, or is dropped
	opInject = "inject" // Body: a request or notification for the server
	opFaults = "faults" // Faults: the fault rules from now on
)

// command is one line a viewer sends the hub (see the package comment).
type command struct {
	Ref     uint64         `json:"ref"`
	Op      string         `json:"op"`
	Filters []proxy.Filter `json:"filters,omitempty"`
	Held    uint64         `json:"held,omitempty"`
	Drop    bool           `json:"drop,omitempty"`
	Body    []byte         `json:"body,omitempty"`
	Faults  []proxy.Fault  `json:"faults,omitempty"`
}

// decodeCommand reads one command line, saying what is wrong with it. A
// command of the right shape whose values the session refuses (a bad
// filter) is not wrong here: its answer says so.
func decodeCommand(b []byte) (command, error) {
	var c command
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return command{}, fmt.Errorf("not a command (one JSON object a line): %w", err)
	}
	if d.More() {
		return command{}, errors.New("not a command: more than one JSON value on the line")
	}
	if c.Ref == 0 {
		return command{}, errors.New("a command needs a ref above 0")
	}
	switch c.Op {
	case opPause, opDecide, opInject, opFaults:
	default:
		return command{}, fmt.Errorf("unknown command %q: pause, decide, inject or faults", c.Op)
	}
	return c, nil
}

// hubKind is the "k" of every hub line: no recording line has it.
const hubKind = "live"

// hubPrefix starts every hub line as encoding/json writes it.
var hubPrefix = []byte(`{"k":"live"`)

// hubLine is a line the hub writes between the recording's lines.
type hubLine struct {
	K     string    `json:"k"`
	Ref   uint64    `json:"ref,omitempty"` // the command answered
	ID    string    `json:"id,omitempty"`  // inject: the request's id
	Err   string    `json:"err,omitempty"` // the command failed: why
	State *hubState `json:"state,omitempty"`
	Bye   string    `json:"bye,omitempty"` // the hub ends this stream: why
}

// hubState is the steering in force.
type hubState struct {
	Filters []proxy.Filter `json:"filters"`
	Faults  []proxy.Fault  `json:"faults"`
	Held    []proxy.Held   `json:"held"`
}

// decodeHubLine reads one hub line.
func decodeHubLine(b []byte) (hubLine, error) {
	var l hubLine
	if err := json.Unmarshal(b, &l); err != nil {
		return hubLine{}, fmt.Errorf("a line of the live session is not JSON: %w", err)
	}
	if l.K != hubKind {
		return hubLine{}, fmt.Errorf("a line of the live session has kind %q", l.K)
	}
	return l, nil
}

// lineWriter writes whole lines to a connection, one writer at a time:
// the recording's lines and the hub's never mix within a line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p, which holds whole lines.
func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// send writes v as one line.
func (l *lineWriter) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = l.Write(append(b, '\n'))
	return err
}

// marshalLine is v as one JSON line.
func marshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
