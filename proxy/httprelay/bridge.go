package httprelay

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proxy"
)

// BridgeOptions configure a Bridge.
type BridgeOptions struct {
	// Session is the proxied session every message goes through.
	Session *proxy.Session
	// URL is the server's endpoint: the Streamable HTTP endpoint, or the
	// legacy stream's URL when Legacy.
	URL *url.URL
	// Legacy speaks the HTTP+SSE transport of 2024-11-05.
	Legacy bool
	// Client reaches the server (NewClient).
	Client *http.Client
	// Header holds headers (--header) every request carries.
	Header http.Header
	// NoRedact keeps credentials in the captured heads.
	NoRedact bool
	// Stdin and Stdout are the host's: a JSON-RPC message a line.
	Stdin  io.Reader
	Stdout io.Writer
}

// closeWait bounds, once the host closed stdin, the wait for the answers
// under way and for the DELETE that ends the session.
const closeWait = 2 * time.Second

// Bridge relays a host that speaks stdio to a server that speaks HTTP.
type Bridge struct {
	opt  BridgeOptions
	sess *proxy.Session
	tap  tap
	seq  atomic.Uint64
	out  sync.Mutex // one line to the host at a time
	wg   sync.WaitGroup
	cut  chan string     // a fault cut the host's connection
	ctx  context.Context // the bridge's life: every request to the server

	mu        sync.Mutex
	session   string // Mcp-Session-Id
	version   string // the protocol version initialize settled
	initID    string // the id of the host's initialize request, as JSON
	listening bool   // the GET stream was asked for
	closing   bool   // the host is gone: no new POST starts
	legacy    *legacyStream
}

// NewBridge returns a Bridge for opt.
func NewBridge(opt BridgeOptions) (*Bridge, error) {
	if opt.Session == nil || opt.URL == nil || opt.Client == nil || opt.Stdin == nil || opt.Stdout == nil {
		return nil, errors.New("httprelay: a bridge needs a session, the server's URL, a client, stdin and stdout")
	}
	return &Bridge{opt: opt, sess: opt.Session, tap: tap{sess: opt.Session, noRedact: opt.NoRedact}, cut: make(chan string, 1)}, nil
}

// Run relays until the host closes stdin (nil), ctx ends, the legacy
// stream ends or a fault cuts the connection.
func (b *Bridge) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.ctx = ctx
	if b.opt.Legacy {
		b.legacy = b.openLegacy(ctx)
	}
	b.sess.SetInjector(func(ctx context.Context, body []byte) error {
		return b.post(ctx, body, aside{tap: b.tap, conn: "injected"})
	})
	lines := make(chan error, 1)
	go func() { lines <- b.readLines(ctx) }()
	var err error
	select {
	case err = <-lines:
	case why := <-b.cut:
		err = errors.New("the proxy cut the connection: " + why)
	case <-b.legacyDone():
		err = b.legacy.err()
	case <-ctx.Done():
		err = ctx.Err()
	}
	b.finish(cancel)
	return err
}

// finish waits a bounded time for the answers under way, ends the
// session with DELETE and stops the streams.
func (b *Bridge) finish(cancel context.CancelFunc) {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeWait):
	}
	b.mu.Lock()
	session := b.session
	b.mu.Unlock()
	if session != "" && !b.opt.Legacy {
		ctx, stop := context.WithTimeout(context.Background(), closeWait)
		b.deleteSession(ctx)
		stop()
	}
	cancel()
}

// legacyDone is closed when the legacy stream ended (never for
// Streamable HTTP).
func (b *Bridge) legacyDone() <-chan struct{} {
	if b.legacy == nil {
		return nil
	}
	return b.legacy.done
}

// readLines relays each line the host writes until stdin ends. A line
// past maxBody is not posted: it is answered with a JSON-RPC error
// (refuseLong) and the lines after it are read on.
func (b *Bridge) readLines(ctx context.Context) error {
	rd := bufio.NewReaderSize(b.opt.Stdin, 64<<10)
	for {
		ln, size, err := readLine(rd)
		switch {
		case size > maxBody:
			if rerr := b.refuseLong(ln, size); rerr != nil {
				return rerr
			}
		case len(bytes.TrimSpace(ln)) > 0:
			conn := "http POST " + strconv.FormatUint(b.seq.Add(1), 10)
			h := proxy.Hop{Dir: capture.Out, Conn: conn, Chan: capture.Channel{Kind: capture.Control}, Raw: ln, Body: ln, Enc: proto.EncJSON,
				Fields: []proto.Field{{Offset: 0, Len: len(ln), Name: "body", Kind: proto.FieldBody}}}
			if rerr := b.sess.Relay(ctx, h, &lineHost{b: b, conn: conn}); rerr != nil {
				return rerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the host's stdin: %w", err)
		}
	}
}

// readLine reads one line, its line end left out, and says how long it
// was (line end included). A line past maxBody is never buffered whole:
// it is read to its end and what is returned is its first keptHead bytes.
func readLine(rd *bufio.Reader) (ln []byte, size int64, err error) {
	for {
		part, err := rd.ReadSlice('\n')
		size += int64(len(part))
		if size <= maxBody {
			ln = append(ln, part...)
		} else if len(ln) < keptHead {
			ln = append(ln, part[:min(len(part), keptHead-len(ln))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size > maxBody {
			if len(ln) > keptHead {
				ln = ln[:keptHead:keptHead]
			}
			return ln, size, err
		}
		return bytes.TrimRight(ln, "\r\n"), size, err
	}
}

// lineHost is the host's side of the bridge for the messages of one
// POST: toward the server it posts, toward the host it writes a line.
type lineHost struct {
	b    *Bridge
	conn string
}

// Pass posts a host's message, or writes a server's to the host.
func (l *lineHost) Pass(ctx context.Context, h proxy.Hop) error {
	if h.Dir == capture.Out {
		return l.b.post(ctx, h.Raw, l)
	}
	return l.b.writeLine(h.Body)
}

// Send posts body, or writes it to the host.
func (l *lineHost) Send(ctx context.Context, dir capture.Dir, body []byte) error {
	if dir == capture.Out {
		return l.b.post(ctx, body, l)
	}
	return l.b.writeLine(line(body))
}

// Cut ends the bridge.
func (l *lineHost) Cut(reason string) {
	select {
	case l.b.cut <- reason:
	default:
	}
}

func (*lineHost) raw(context.Context, []byte) error { return nil }

// writeLine writes one message to the host, a line.
func (b *Bridge) writeLine(body []byte) error {
	b.learnVersion(body)
	b.out.Lock()
	defer b.out.Unlock()
	if _, err := b.opt.Stdout.Write(append(bytes.Clone(body), '\n')); err != nil {
		return fmt.Errorf("writing to the host: %w", err)
	}
	return nil
}
