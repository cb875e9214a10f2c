package recordings

import (
	"errors"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// seqMemory is how many recent frames a Replayer remembers the live Seq
// of, for the SSE events that point back at their frames.
const seqMemory = 4096

// Replayer feeds the records of a recording into a Store the way the live
// transports fed the session's Store, at the recorded times: the store's
// clock reads the time of the record being applied.
type Replayer struct {
	store  *capture.Store
	now    time.Time
	seqs   map[uint64]uint64 // live Seq → Seq in store, for recent frames
	newest uint64
	// Transport, Era and Protocol are what the recording's link line gave.
	Transport, Era, Protocol string
	frames                   int64
}

// NewStore returns a Store with cfg's bounds whose clock is the Replayer's,
// and the Replayer that feeds it.
func NewStore(cfg capture.Config) (*capture.Store, *Replayer) {
	p := &Replayer{seqs: map[uint64]uint64{}}
	cfg.Clock = func() time.Time { return p.now }
	p.store = capture.NewStore(cfg)
	return p.store, p
}

// Store returns the store the Replayer feeds.
func (p *Replayer) Store() *capture.Store { return p.store }

// Frames returns how many frames have been applied.
func (p *Replayer) Frames() int64 { return p.frames }

// Now returns the time of the last record applied.
func (p *Replayer) Now() time.Time { return p.now }

// Apply feeds one record into the store. Records must be applied in the
// order of the recording, from one goroutine.
func (p *Replayer) Apply(rec *Record) {
	if !rec.Time.IsZero() && rec.Time.Unix() > 0 {
		p.now = rec.Time
	}
	s := p.store
	switch rec.Kind {
	case RecFrame:
		p.frames++
		seq := s.Append(rec.Frame)
		if rec.LiveSeq != 0 && seq != 0 {
			p.remember(rec.LiveSeq, seq)
		}
	case RecMark:
		var err error
		if rec.Err != "" {
			err = errors.New(rec.Err)
		}
		s.MarkStream(rec.Key, rec.State, err)
	case RecLabel:
		s.LabelStream(rec.Key, rec.Label)
	case RecSize:
		s.SetStreamSize(rec.Key, rec.Size)
	case RecRest:
		s.AddStreamRest(rec.Key, rec.Chunks, rec.Size, rec.Time, rec.Tail)
	case RecSSEOpen:
		s.OpenSSE(rec.Conn, rec.SSE)
	case RecSSEEvent:
		s.SSEEvent(rec.Conn, p.seqs[rec.LiveSeq], rec.Size, rec.LastID)
	case RecSSEEnd:
		s.EndSSE(rec.Conn, rec.SSEState, rec.Why)
	case RecLink:
		p.Transport, p.Era, p.Protocol = rec.Transport, rec.Era, rec.Protocol
	}
}

// remember maps a live Seq to the replayed one, forgetting the oldest
// mappings past seqMemory.
func (p *Replayer) remember(live, seq uint64) {
	p.seqs[live] = seq
	p.newest = max(p.newest, live)
	if len(p.seqs) > 2*seqMemory {
		for k := range p.seqs {
			if k+seqMemory < p.newest {
				delete(p.seqs, k)
			}
		}
	}
}
