package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/recordings"
)

// Options configures a proxied session.
type Options struct {
	// Name names the session (--name): the recording, the live socket and
	// what attach and wrap call it. Required.
	Name string
	// Target is what the proxy stands before — a command line or a URL —
	// with secrets removed.
	Target string
	// Transport is the transport's name (DESIGN.md §5): stdio, http, sse,
	// ws, gateway or wt.
	Transport string
	// Version is mcpscope's version, for the recording's header.
	Version string

	// NoRecord turns the recording off (--no-record).
	NoRecord bool
	// Record is the recording's path (--record); by default a fresh file
	// in the state directory named after Name.
	Record string
	// Redact says how the recording masks secrets: the values of
	// Authorization, cookies and tokens are masked unless NoRedact.
	Redact recordings.Options
	// Capture bounds the store live viewers read (capture.Config{}: the
	// defaults).
	Capture capture.Config
	// Faults are the fault rules in force from the start (--faults).
	Faults []Fault
	// Log receives what the proxy has to say to a person (a stopped
	// recording); by default standard error. A stdio proxy never writes
	// on standard output: it belongs to the host.
	Log func(format string, args ...any)

	// Clock gives the time of frames; default time.Now.
	Clock func() time.Time
}

// Session is one proxied session: what the relays of one host ⇄ server
// pair capture and carry. Every method is safe for concurrent use.
type Session struct {
	opt     Options
	store   *capture.Store
	rec     *recordings.Writer
	tap     capture.Tap
	header  recordings.Header
	clock   func() time.Time
	log     func(format string, args ...any)
	done    chan struct{}
	closing sync.Once

	mu       sync.Mutex
	calls    calls           // requests in flight, both ways
	injector Injector        // how a viewer's request reaches the server
	space    string          // the prefix of injected ids: unique to this session
	injected map[string]bool // ids of injected requests still unanswered
	nInject  uint64
	gate     gate
	faults   *faultState
	cause    error
}

// ErrNoServerPath says a request cannot be injected: the relay has no way
// to the server (yet).
var ErrNoServerPath = errors.New("no way to the server yet: the host has not opened a session")

// Open starts a session: its store and, unless opt.NoRecord, its
// recording.
func Open(opt Options) (*Session, error) {
	if opt.Name == "" {
		return nil, errors.New("a proxied session needs a name")
	}
	s := &Session{
		opt:      opt,
		store:    capture.NewStore(opt.Capture),
		clock:    opt.Clock,
		log:      opt.Log,
		done:     make(chan struct{}),
		injected: map[string]bool{},
		calls:    newCalls(),
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.log == nil {
		s.log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "mcpscope proxy: "+format+"\n", args...) }
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	s.space = "mcpscope-" + hex.EncodeToString(id[:]) + "-"
	s.faults = newFaultState(opt.Faults)
	redaction := recordings.RedactDefault
	if opt.Redact.NoRedact {
		redaction = recordings.RedactNone
	}
	s.header = recordings.Header{
		Format: recordings.Format, Version: recordings.Version, Mcpscope: opt.Version,
		Target: opt.Target, Transport: opt.Transport, Started: s.clock(),
		Redaction: redaction, StreamMax: opt.Redact.StreamMax, Proxy: opt.Name,
	}
	if s.header.StreamMax == 0 {
		s.header.StreamMax = recordings.DefaultStreamMax
	}
	s.tap = capture.Serialized(s.store)
	if !opt.NoRecord {
		if err := s.startRecording(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// startRecording creates the recording at opt.Record or in the state
// directory, and tees it beside the store.
func (s *Session) startRecording() error {
	path := s.opt.Record
	if path == "" {
		dir, err := recordings.Dir()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("creating the recordings directory: %w", err)
		}
		// Room for the new one: the newest 49 stay.
		_ = recordings.Prune(dir, recordings.KeepSessions-1, recordings.KeepBytes)
		if path, err = reservePath(dir, "proxy-"+s.opt.Name, s.header.Started); err != nil {
			return err
		}
	}
	o := s.opt.Redact
	o.Stopped = func(err error) {
		s.log("the recording stopped (%v); the session goes on unrecorded", err)
		// Not on this goroutine: the Writer may be telling from inside an
		// Append that holds the tap's lock.
		go s.mark(capture.Out, "", Mark{What: WhatRecording, Note: err.Error()})
	}
	w, err := recordings.Create(path, s.header, o)
	if err != nil {
		return fmt.Errorf("creating the recording: %w", err)
	}
	s.rec = w
	s.tap = capture.Serialized(capture.Tee(s.store, w).(capture.Tap))
	return nil
}

// reservePath creates an empty file of a fresh recording's name in dir
// and returns its path. Two proxies of the same name started in the same
// millisecond get two files: the second name carries "-2", and so on.
func reservePath(dir, name string, started time.Time) (string, error) {
	base := recordings.NewPath(dir, name, started)
	stem := strings.TrimSuffix(base, recordings.Ext)
	for n := 1; ; n++ {
		path := base
		if n > 1 {
			path = fmt.Sprintf("%s-%d%s", stem, n, recordings.Ext)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return path, f.Close()
		}
		if !errors.Is(err, fs.ErrExist) || n == 1000 {
			return "", fmt.Errorf("creating the recording: %w", err)
		}
	}
}

// Name is the session's name.
func (s *Session) Name() string { return s.opt.Name }

// Header is the recording header of the session (also what live viewers
// are sent first).
func (s *Session) Header() recordings.Header { return s.header }

// Store is the bounded store of everything captured; live viewers read it.
func (s *Session) Store() *capture.Store { return s.store }

// Recording is the path of the session's recording, or "".
func (s *Session) Recording() string {
	if s.rec == nil {
		return ""
	}
	return s.rec.Path()
}

// Tap is where a relay captures what is not a message it relays (stderr
// lines, HTTP heads, stream chunks, datagrams, stream marks).
func (s *Session) Tap() capture.Tap { return s.tap }

// Done is closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err says why the session ended (nil: closed cleanly or still open).
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cause
}

// Missed is how many frames a viewer of the session itself missed: none
// (a live.Viewer, which reads it over a socket, may miss some).
func (s *Session) Missed() int64 { return 0 }

// Now is the session's clock.
func (s *Session) Now() time.Time { return s.clock() }

// SetInjector registers how a viewer's request reaches the server.
func (s *Session) SetInjector(inj Injector) {
	s.mu.Lock()
	s.injector = inj
	s.mu.Unlock()
}

// capture appends a frame, stamping its time.
func (s *Session) capture(f *capture.Frame) uint64 {
	if f.Time.IsZero() {
		f.Time = s.clock()
	}
	return s.tap.Append(f)
}

// mark captures m going dir on conn and returns its Seq.
func (s *Session) mark(dir capture.Dir, conn string, m Mark) uint64 {
	return s.capture(m.Frame(dir, conn))
}

// Close ends the session, saying how (nil: the host or the server closed
// it cleanly): paused messages are let go, the recording is closed.
func (s *Session) Close(cause error) error {
	var err error
	s.closing.Do(func() {
		note := "closed"
		s.mu.Lock()
		s.cause = cause
		s.mu.Unlock()
		if cause != nil {
			note = cause.Error()
		}
		s.gate.releaseAll(s, "the session ended")
		s.mark(capture.In, "", Mark{What: WhatEnded, Note: note})
		if s.rec != nil {
			err = s.rec.Close()
		}
		close(s.done)
	})
	return err
}
