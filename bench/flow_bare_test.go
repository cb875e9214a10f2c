package bench

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"
)

// The bare MCP-Flow reader: the baseline of BenchmarkReadFileStreamVsBareReader.
// It is written straight on webtransport-go, with nothing of mcpscope: JSON
// control frames, no capture, one large read buffer.

// bareMaxFrame bounds a control frame the bare reader accepts.
const bareMaxFrame = 16 << 20

// bareReadBuffer is the bare reader's read buffer.
const bareReadBuffer = 1 << 20

// bareKeepAlive keeps the session open while the other reader's transfer
// runs (QUIC's idle timeout is 30 s), as mcpscope's transport does.
const bareKeepAlive = 15 * time.Second

// bareFlow is a minimal MCP-Flow client session.
type bareFlow struct {
	sess *wt.Session
	ctrl *wt.Stream
	id   uint32
}

// bareMessage is the part of a JSON-RPC message the bare reader looks at.
type bareMessage struct {
	ID     *uint32         `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// dialBare opens a session to url, pinning the certificate digest pin
// ("sha256:HEX"), opens the control stream and initializes in JSON.
func dialBare(ctx context.Context, url, pin string) (*bareFlow, error) {
	pinned := func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errors.New("no server certificate")
		}
		sum := sha256.Sum256(cs.PeerCertificates[0].Raw)
		if got := "sha256:" + hex.EncodeToString(sum[:]); got != pin {
			return fmt.Errorf("server certificate %s is not the pinned %s", got, pin)
		}
		return nil
	}
	d := &wt.Transport{
		// InsecureSkipVerify: the pin replaces the verification.
		TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true, VerifyConnection: pinned},
		QUICConfig: &quic.Config{
			EnableDatagrams: true, EnableStreamResetPartialDelivery: true, KeepAlivePeriod: bareKeepAlive,
		},
	}
	defer d.Close()
	_, sess, err := d.Dial(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("bare dial: %w", err)
	}
	c := &bareFlow{sess: sess}
	if c.ctrl, err = sess.OpenStreamSync(ctx); err != nil {
		c.close()
		return nil, fmt.Errorf("bare control stream: %w", err)
	}
	init := map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bare", "version": "1"},
		"transport":  map[string]any{"type": "mcp-flow", "version": "0.1", "encodings": []string{"json"}},
	}
	if _, err := c.roundTrip(ctx, "initialize", init); err != nil {
		c.close()
		return nil, err
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// close ends the session.
func (c *bareFlow) close() { _ = c.sess.CloseWithError(0, "shutdown") }

// send writes one JSON control frame.
func (c *bareFlow) send(msg any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	frame := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(body)), uint32(len(body)))
	if _, err := c.ctrl.Write(append(frame, body...)); err != nil {
		return fmt.Errorf("bare send: %w", err)
	}
	return nil
}

// request sends a request and returns its id.
func (c *bareFlow) request(method string, params any) (uint32, error) {
	c.id++
	return c.id, c.send(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
}

// response reads control frames until the response to id; a JSON-RPC error
// is returned as an error.
func (c *bareFlow) response(ctx context.Context, id uint32) (json.RawMessage, error) {
	dl, _ := ctx.Deadline() // zero: none
	_ = c.ctrl.SetReadDeadline(dl)
	stop := context.AfterFunc(ctx, func() { _ = c.ctrl.SetReadDeadline(time.Now()) })
	defer stop()
	for {
		var size [4]byte
		if _, err := io.ReadFull(c.ctrl, size[:]); err != nil {
			return nil, fmt.Errorf("bare control read: %w", err)
		}
		n := binary.BigEndian.Uint32(size[:])
		if n > bareMaxFrame {
			return nil, fmt.Errorf("bare control frame of %d bytes is over the limit", n)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(c.ctrl, body); err != nil {
			return nil, fmt.Errorf("bare control read: %w", err)
		}
		var m bareMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, fmt.Errorf("bare control frame: %w", err)
		}
		switch {
		case m.ID == nil || *m.ID != id: // a notification or another answer
		case m.Error != nil:
			return nil, fmt.Errorf("error %d: %s", m.Error.Code, m.Error.Message)
		default:
			return m.Result, nil
		}
	}
}

// roundTrip sends a request and waits for its result.
func (c *bareFlow) roundTrip(ctx context.Context, method string, params any) (json.RawMessage, error) {
	id, err := c.request(method, params)
	if err != nil {
		return nil, err
	}
	return c.response(ctx, id)
}

// readFile calls read_file for size generated bytes and reads the execution
// stream to its end, discarding the payload. It returns the payload bytes.
func (c *bareFlow) readFile(ctx context.Context, size int64, order string) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	id, err := c.request("tools/call", map[string]any{
		"name": "read_file", "arguments": map[string]any{"size": size, "order": order},
	})
	if err != nil {
		return 0, err
	}
	answered := make(chan error, 1)
	go func() {
		_, err := c.response(ctx, id)
		if err != nil {
			cancel() // no stream will come
		}
		answered <- err
	}()
	n, serr := c.readStream(ctx, id)
	if serr != nil {
		cancel() // the answer may never come
	}
	if err := <-answered; err != nil {
		return n, fmt.Errorf("bare read_file: %w", err)
	}
	return n, serr
}

// readStream accepts the execution stream of request id and reads it to FIN.
func (c *bareFlow) readStream(ctx context.Context, id uint32) (int64, error) {
	str, err := c.sess.AcceptUniStream(ctx)
	if err != nil {
		return 0, fmt.Errorf("bare accept stream: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = str.SetReadDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = str.SetReadDeadline(time.Now()) })
	defer stop()
	var hdr [8]byte
	if _, err := io.ReadFull(str, hdr[:]); err != nil {
		return 0, fmt.Errorf("bare stream header: %w", err)
	}
	if got := binary.BigEndian.Uint32(hdr[:4]); got != id {
		return 0, fmt.Errorf("bare stream belongs to request %d, not %d", got, id)
	}
	buf := make([]byte, bareReadBuffer)
	var total int64
	for {
		n, err := str.Read(buf)
		total += int64(n)
		switch {
		case errors.Is(err, io.EOF):
			return total, nil
		case err != nil:
			return total, fmt.Errorf("bare stream read: %w", err)
		}
	}
}
