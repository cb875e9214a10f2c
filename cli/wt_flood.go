package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// datagramFloodRate is the number of datagrams within one second over
// which a run warns of a flood: twenty times the rate of 20 ms audio.
const datagramFloodRate = 1000

// datagramFlood counts the server's datagrams and, when the run ends, warns
// once if more than datagramFloodRate of them came within one second.
// Without --trace nothing else tells of them.
type datagramFlood struct {
	out *lineWriter

	mu     sync.Mutex
	total  int
	start  time.Time // of the current one-second window
	window int       // datagrams in it
	peak   int       // the most in one window
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and keeps
// none of its bytes.
func (*datagramFlood) ReleasesUnheld() bool { return true }

// Append counts an incoming datagram.
func (d *datagramFlood) Append(f *capture.Frame) uint64 {
	if f.Dir != capture.In || f.Chan.Kind != capture.Datagram {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.total++
	if f.Time.Sub(d.start) >= time.Second {
		d.start, d.window = f.Time, 0
	}
	d.window++
	d.peak = max(d.peak, d.window)
	return 0
}

// Flush prints the warning, once, when a flood was seen.
func (d *datagramFlood) Flush() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.peak > datagramFloodRate {
		d.out.Println(fmt.Sprintf("warning: the server flooded the session with datagrams: %d arrived, up to %d within one second; "+
			"datagrams beyond the receive queue are dropped, so some may be missing", d.total, d.peak))
		d.peak = 0
	}
}
