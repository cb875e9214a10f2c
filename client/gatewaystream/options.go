package gatewaystream

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpscope/mcpscope/proto/gateway"
)

// DefaultChunkSize is the size of an uploaded binary chunk.
const DefaultChunkSize = 64 << 10

// Options are what one run sends and how long it waits.
type Options struct {
	// Upload is the file sent on the client's stream: a path, "-" for
	// Stdin, or "" to send nothing but the start and the done.
	Upload string
	// Stdin is read when Upload is "-".
	Stdin io.Reader
	// Text sends text chunks, one JSON value per input line, instead of
	// binary chunks of ChunkSize bytes.
	Text bool
	// ChunkSize is the size of a binary chunk (0: DefaultChunkSize).
	ChunkSize int
	// Meta is a JSON object of start meta that adds to or replaces what
	// the run puts in the start ("" for none).
	Meta string
	// StreamOut is the directory the server's streams are saved in, one
	// file each named by its GUID ("": not saved).
	StreamOut string
	// Timeout bounds the wait for each sign of life, MaxTime the whole
	// run, the dial included.
	Timeout, MaxTime time.Duration
	// Println prints a line about the run: what each server stream
	// brought, a stream not followed (nil: nothing is printed).
	Println func(string)
	// Warnings takes the problems of the stream messages (nil: dropped).
	Warnings Warner
}

// Warner takes the warnings of a run; it may print only some of them and
// count the rest, which Flush says once the run is over.
type Warner interface {
	// Warn takes one warning about one of what (a plural noun phrase);
	// text words it.
	Warn(what string, text func() string)
	// Flush says what Warn held back.
	Flush()
}

// quiet drops every warning.
type quiet struct{}

func (quiet) Warn(string, func() string) {}
func (quiet) Flush()                     {}

// FailureKind says whose fault a failed run is.
type FailureKind int

// Kinds of failure.
const (
	// Connection: the connection failed or a send on it did.
	Connection FailureKind = iota
	// Timeout: the run got no sign of life within Timeout, or did not end
	// within MaxTime.
	Timeout
	// Input: what was to be sent is not what the options say (a text
	// line that is not JSON, an upload that cannot be opened, bad meta).
	Input
)

// Failure is why a run ended before the server ended it.
type Failure struct {
	Kind FailureKind
	Err  error
}

// Error is the reason.
func (f *Failure) Error() string { return f.Err.Error() }

// Unwrap returns the reason.
func (f *Failure) Unwrap() error { return f.Err }

// ErrProblem marks a run that saw a stream message break the protocol.
var ErrProblem = errors.New("the server's stream broke the protocol")

// timeout is the failure of a stream that ran out of time.
func timeout(id string, after time.Duration, maxTime bool) error {
	if maxTime {
		return &Failure{Kind: Timeout, Err: fmt.Errorf("stream %s did not end within --max-time %s; closed its connection", id, after)}
	}
	return &Failure{Kind: Timeout, Err: fmt.Errorf("stream %s: no sign of life from the gateway for %s (--timeout); closed its connection", id, after)}
}

// StartMeta is the meta of the start of a run of method: the method,
// binary unless Text, the upload's name and size, then what Meta adds or
// replaces.
func StartMeta(method string, o Options) (*gateway.StreamMeta, error) {
	meta := &gateway.StreamMeta{Method: method, Binary: !o.Text}
	if o.Upload != "" && o.Upload != "-" {
		st, err := os.Stat(o.Upload)
		if err != nil {
			return nil, &Failure{Kind: Input, Err: fmt.Errorf("--upload: %v", err)}
		}
		meta.Name = filepath.Base(o.Upload)
		if !o.Text {
			size := st.Size()
			meta.TotalSize = &size
		}
	}
	if o.Meta != "" {
		if err := json.Unmarshal([]byte(o.Meta), meta); err != nil {
			return nil, &Failure{Kind: Input, Err: fmt.Errorf("--meta is not a JSON object of start meta: %v", err)}
		}
		meta.Method = method
	}
	return meta, nil
}

// openUpload opens what Upload names, or nothing.
func (g *Run) openUpload() (io.ReadCloser, error) {
	switch g.o.Upload {
	case "":
		return nil, nil
	case "-":
		return io.NopCloser(g.o.Stdin), nil
	}
	file, err := os.Open(g.o.Upload)
	if err != nil {
		return nil, fmt.Errorf("--upload: %w", err)
	}
	return file, nil
}

// Problems counts the stream messages that broke the protocol, and a
// server that opened more streams than a run follows.
func (g *Run) Problems() int { return g.problems }
