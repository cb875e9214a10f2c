package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
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
	// Capture bounds the store live viewers read (capture.Config{}:
	// ViewerCapture). The recording keeps everything; the store is what a
	// viewer attaching late is shown of the past, so a proxy on a session
	// of any length holds no more than these bounds. Fields left at zero
	// take ViewerCapture's, then the capture defaults.
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
	calls    calls    // requests in flight, both ways
	injector Injector // how a viewer's request reaches the server
	space    string   // the prefix of injected ids: unique to this session
	nInject  uint64
	gate     gate
	faults   *faultState
	cause    error

	recStopped chan error    // the Writer's Stopped hands its error here
	recQuit    chan struct{} // Close stops watchRecording
	recWatched chan struct{} // closed when watchRecording returns
}

// SecretHeaders are the HTTP headers whose values the recording and the
// live viewers show masked (unless --no-redact): the host's credentials
// pass through the proxy untouched, and never reach a file or a screen.
var SecretHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
	"X-Api-Key", "Api-Key", "X-Auth-Token",
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
		opt:   opt,
		store: capture.NewStore(viewerCapture(opt.Capture)),
		clock: opt.Clock,
		log:   opt.Log,
		done:  make(chan struct{}),
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
	s.calls = newCalls("s" + s.space) // the key of a string id is "s" + it
	if err := checkFaults(opt.Faults); err != nil {
		return nil, err
	}
	s.faults = newFaultState(slices.Clone(opt.Faults))
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
	o := s.Redaction()
	// The Writer may tell from inside an Append that holds the tap's lock,
	// or from inside Create before the tap is set: Stopped only hands the
	// error on, and watchRecording marks it.
	stopped := make(chan error, 1)
	o.Stopped = func(err error) {
		select {
		case stopped <- err:
		default: // told once; never blocks
		}
	}
	w, err := recordings.Create(path, s.header, o)
	if err != nil {
		return fmt.Errorf("creating the recording: %w", err)
	}
	s.rec = w
	s.tap = capture.Serialized(bothWhole{s.store, w})
	s.recStopped, s.recQuit, s.recWatched = stopped, make(chan struct{}), make(chan struct{})
	go s.watchRecording()
	return nil
}

// watchRecording marks the recording's stop (a full disk) when the
// Writer tells it, until Close.
func (s *Session) watchRecording() {
	defer close(s.recWatched)
	select {
	case err := <-s.recStopped:
		s.recordingStopped(err)
	case <-s.recQuit:
	}
}

// recordingStopped says the recording stopped, once: on standard error
// (or Options.Log) and as a WhatRecording mark.
func (s *Session) recordingStopped(err error) {
	s.log("%v; the session goes on unrecorded", err) // err says the recording stopped
	s.Mark(capture.Out, "", Mark{What: WhatRecording, Note: err.Error()})
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

// Redaction is how the session masks credentials, in its recording and
// for its viewers alike: Options.Redact with SecretHeaders besides its
// own, its literal secrets (the --header values) kept. Stopped is not set.
func (s *Session) Redaction() recordings.Options {
	o := s.opt.Redact
	o.SecretHeaders = append(slices.Clone(o.SecretHeaders), SecretHeaders...)
	o.Secrets = slices.Clone(o.Secrets)
	o.Stopped = nil
	return o
}

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

// HoldRecording says the relay calling it writes the recording itself:
// until ReleaseRecording, the messages it captures wait, and the release
// writes them to the file in the relay's own goroutine, in one write, once
// they are carried on — a message, or a burst of messages read at once —
// instead of waking the recording's file writer for each (see
// recordings.Writer.Hold). A message that waits for a viewer or a delay
// is written before it waits.
func (s *Session) HoldRecording() {
	if s.rec != nil {
		s.rec.Hold()
	}
}

// ReleaseRecording ends a HoldRecording, writing what it held.
func (s *Session) ReleaseRecording() {
	if s.rec != nil {
		s.rec.Release()
	}
}

// recordPending writes what the recording holds now, before a wait.
func (s *Session) recordPending() {
	if s.rec != nil {
		s.rec.Flush()
	}
}

// capture appends a frame, stamping its time.
func (s *Session) capture(f *capture.Frame) uint64 {
	if f.Time.IsZero() {
		f.Time = s.clock()
	}
	return s.tap.Append(f)
}

// CaptureOn is how a relay captures what is not a message it relays (a
// stream chunk, a datagram, an HTTP head) on the connection conn: f is
// stamped with conn, the session's time unless it has one, and its size
// unless set, then captured. It returns f's Seq.
func (s *Session) CaptureOn(conn string, f *capture.Frame) uint64 {
	f.Conn = conn
	if f.Size == 0 {
		f.Size = len(f.Raw)
	}
	return s.capture(f)
}

// Mark captures m going dir on conn, stamped with the session's time,
// and returns its Seq: what a relay did to the traffic on its own (a
// message carried on unsteered because it was too long, say).
func (s *Session) Mark(dir capture.Dir, conn string, m Mark) uint64 {
	return s.capture(m.Frame(dir, conn))
}

// recordingStoppedSince marks a stop the Writer told after watchRecording
// returned.
func (s *Session) recordingStoppedSince() {
	select {
	case err := <-s.recStopped:
		s.recordingStopped(err)
	default:
	}
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
		s.gate.releaseAll("the session ended", false, true)
		if s.rec != nil {
			close(s.recQuit)
			<-s.recWatched
			s.recordingStoppedSince()
		}
		s.Mark(capture.In, "", Mark{What: WhatEnded, Note: note})
		if s.rec != nil {
			err = s.rec.Close()
			s.recordingStoppedSince() // the end did not fit: the store says so
		}
		close(s.done)
	})
	return err
}

// ViewerCapture bounds a proxy's store unless Options.Capture says
// otherwise: the newest 100,000 frames within 64 MiB, metadata included
// (a MemoryBound of about 100 MiB), a tenth of what the TUI keeps — the
// proxy runs beside a host for days, and the recording holds the rest.
var ViewerCapture = capture.Config{MaxFrames: 100_000, MaxBytes: 64 << 20}

// viewerCapture fills the frame and byte bounds of c left at zero from
// ViewerCapture.
func viewerCapture(c capture.Config) capture.Config {
	if c.MaxFrames <= 0 {
		c.MaxFrames = ViewerCapture.MaxFrames
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = ViewerCapture.MaxBytes
	}
	return c
}

// bothWhole hands every frame to the store and to the recording. The
// store caps a frame heavier than its FrameHead in place, and a proxy's
// store is small (ViewerCapture): the recording is given a copy of the
// Frame as it came (up to the recording's own per-frame bound), with the
// store's Seq, and the store the Frame itself, as a Tee would.
type bothWhole struct {
	store *capture.Store
	rec   *recordings.Writer
}

func (b bothWhole) Append(f *capture.Frame) uint64 {
	whole := *f // the recording keeps nothing of it: no copy on the heap
	seq := b.store.Append(f)
	whole.Seq, whole.Time = f.Seq, f.Time
	b.rec.Append(&whole)
	return seq
}

func (b bothWhole) Note(e capture.Event) {
	b.store.Note(e)
	b.rec.Note(e)
}
