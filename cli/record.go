package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/dial"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/recordings"
)

// recordPath returns where to record the session: --record FILE; for the
// TUI, a fresh file in the state directory unless --no-record; otherwise
// "" (headless commands record only when asked).
func (f *runFlags) recordPath(target Target, tui bool) (string, error) {
	switch {
	case f.record != "":
		return f.record, nil
	case f.noRecord || !tui:
		return "", nil
	}
	dir, err := recordings.Dir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the recordings directory: %w", err)
	}
	// Room for the new one: the newest 49 stay.
	_ = recordings.Prune(dir, recordings.KeepSessions-1, recordings.KeepBytes)
	return recordings.NewPath(dir, recordTarget(target), time.Now()), nil
}

// startRecording opens the recording of a session to target, or returns
// nil when there is none to make. The TUI records by default and numbers
// its frames in its Store; a headless run, which has no Store, has the
// Writer number them. A file that cannot be created is an error; one that
// fills (--record /dev/full) stops the recording, not the session, and
// stopped, when set, is told as it happens.
func (f *runFlags) startRecording(target Target, tui bool, stopped func(error)) (*recordings.Writer, error) {
	path, err := f.recordPath(target, tui)
	if err != nil || path == "" {
		return nil, err
	}
	opts := f.recordOptions(target)
	opts.Number, opts.Stopped = !tui, stopped
	w, err := recordings.Create(path, f.recordHeader(target), opts)
	if err != nil {
		return nil, withExit(ExitUsage, err)
	}
	return w, nil
}

// recordHeader is the header of a recording of a session to target.
func (f *runFlags) recordHeader(target Target) recordings.Header {
	return recordings.Header{Mcpscope: Version(), Target: recordTarget(target), Transport: target.Transport}
}

// recordOptions are how the command line asks a session to be recorded:
// redaction, the secrets of its flags, the stream cap.
func (f *runFlags) recordOptions(target Target) recordings.Options {
	values, names := secrets(f.transportOptions(target))
	if f.clientSecret != "" {
		values = append(values, f.clientSecret)
	}
	return recordings.Options{NoRedact: f.noRedact, Secrets: values, SecretHeaders: names, StreamMax: f.recordMax}
}

// recordLink writes the transport and era a connected session settled on.
func recordLink(w *recordings.Writer, t client.Transport, s *client.Session) {
	if w == nil {
		return
	}
	w.Link(client.LinkStateOf(t).Transport, s.Era().String(), s.ProtocolVersion())
}

// recordTarget is the target as a recording names it, as `servers`
// shows one: a URL with its password and secret query values redacted, a
// command line with the values of its secret-named flags and assignments
// redacted (`--api-key=…`, `--token …`, `API_KEY=…`).
func recordTarget(t Target) string {
	if t.URL == nil {
		return strings.Join(redactArgs(t.Argv), " ")
	}
	return redactURL(t.URL.String())
}

// secrets returns the values of the headers and environment variables of
// o (--header, --env and a configured server's own) whose names say auth,
// token, key, secret, cookie or password, which a recording masks
// wherever they appear (an Authorization value's credentials after its
// scheme on their own too), and the names of those headers, whose values
// it masks in every header line.
func secrets(o dial.Options) (values, headers []string) {
	var out []string
	add := func(name, value string) bool {
		if !secretName(name) {
			return false
		}
		value = strings.TrimSpace(value)
		out = append(out, value)
		if _, cred, ok := strings.Cut(value, " "); ok {
			out = append(out, strings.TrimSpace(cred))
		}
		return true
	}
	for _, h := range o.Headers {
		if name, value, ok := strings.Cut(h, ":"); ok && add(name, value) {
			headers = append(headers, strings.TrimSpace(name))
		}
	}
	for _, e := range o.Env {
		if name, value, ok := strings.Cut(e, "="); ok {
			add(name, value)
		}
	}
	return out, headers
}

// closeRecording closes a headless run's recording and says on diag what
// it holds when it stopped early (a full disk; recordingStopped said
// why): the frames before that, still readable, or, when not even its
// header was written, nothing that is a recording.
func closeRecording(w *recordings.Writer, diag *lineWriter) {
	err := w.Close()
	switch {
	case errors.Is(err, recordings.ErrStopped) && w.Empty():
		diag.Println(fmt.Sprintf("warning: the recording %s could not be written: it holds no header and is not a recording", w.Path()))
	case errors.Is(err, recordings.ErrStopped):
		diag.Println(fmt.Sprintf("warning: the recording %s holds the %s before it stopped", w.Path(), plural.Count(w.Frames(), "frame", "frames")))
	case err != nil:
		diag.Println("warning: " + err.Error() + "; the recording holds the " + plural.Count(w.Frames(), "frame", "frames") + " before that")
	}
}

// recordingStopped says on diag, as it happens, that a write error
// stopped a headless run's recording while the session goes on.
func recordingStopped(diag *lineWriter) func(error) {
	return func(err error) { diag.Println("warning: " + err.Error() + "; the session goes on unrecorded") }
}

// recordingTap starts a headless run's recording when --record asks for
// one: the sink to tee it in (nil without one) and what closes it, to be
// deferred so that it runs after the session's close.
func (f *runFlags) recordingTap(target Target, diag *lineWriter) (*recordings.Writer, capture.Sink, func(), error) {
	rec, err := f.startRecording(target, false, recordingStopped(diag))
	if err != nil || rec == nil {
		return nil, nil, func() {}, err
	}
	return rec, rec, func() { closeRecording(rec, diag) }, nil
}
