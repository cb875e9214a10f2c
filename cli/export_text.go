package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// writeTrace writes the recording r as the lines --trace printed while it
// was recorded: the same sink, fed the recorded frames and stream marks,
// reading the recorded time where it read the clock. Server text stays
// escaped as on stderr.
func writeTrace(w io.Writer, r *recordings.Reader) (recordings.Damage, error) {
	out := &stickyWriter{w: w}
	bw := bufio.NewWriterSize(out, 64<<10)
	var now time.Time
	tr := newStreamTrace(&lineWriter{w: bw})
	tr.clock = func() time.Time { return now }
	tr.proxied = r.Header().Proxy != ""
	d, err := recordings.Walk(r, func(rec *recordings.Record) error {
		now = rec.Time
		switch rec.Kind {
		case recordings.RecFrame:
			tr.Append(rec.Frame)
		case recordings.RecMark:
			var err error
			if rec.Err != "" {
				err = errors.New(rec.Err)
			}
			tr.markStream(rec.Key, rec.State, err)
		case recordings.RecSize:
			tr.setStreamSize(rec.Key, rec.Size)
		case recordings.RecRest:
			tr.addRest(rec.Key, rec.Size)
		}
		return out.err
	})
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the export: %w", ferr)
	}
	return d, err
}

// addRest counts the payload bytes of a stream that a recording kept only
// as totals (past --record-stream-max), for its end line.
func (s *streamTrace) addRest(key capture.StreamKey, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tallyLocked(key, time.Time{}).bytes += bytes
}

// stickyWriter keeps the first error writing to w, so a long export stops
// once its reader has gone.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = fmt.Errorf("writing the export: %w", err)
	}
	return n, err
}
