package doctor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/proto"
)

// Probing the legacy HTTP+SSE transport (2024-11-05) as the http transport
// does: when the first POST is refused with 400, 404 or 405 and no
// JSON-RPC answer, it opens the event stream with GET and waits for its
// endpoint event, the URL it then posts to.

// fallsBack reports whether the http transport answers a POST's answer
// (status and body) by trying the legacy HTTP+SSE transport.
func fallsBack(status int, body []byte) bool {
	switch status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
		msgs, _, err := proto.DecodeJSON(body)
		return err != nil || len(msgs) == 0
	}
	return false
}

// probeLegacy opens the legacy event stream with GET on client and reads
// it up to its endpoint event (at most bodyShown bytes, within the step's
// time), then judges the endpoint as the transport does: a URL of the
// stream's own origin.
func (w *walk) probeLegacy(ctx context.Context, client *http.Client) (string, *challenge, error) {
	req, err := w.newRequest(ctx, http.MethodGet, nil)
	if err != nil {
		return "", nil, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return "", nil, fmt.Errorf("GET %s: %w", w.cfg.URL.Redacted(), err)
	}
	defer resp.Body.Close()
	detail, ch, err := judgeHTTP(http.MethodGet, resp, w.cfg.Origin, true)
	var f *Failure
	if errors.As(err, &f) {
		return "", nil, &Failure{Class: f.Class, Fix: f.Fix, Err: fmt.Errorf("GET → %w", f.Err)}
	}
	if err != nil || ch != nil {
		return detail, ch, err
	}
	data, err := endpointEvent(resp.Body)
	switch {
	case errors.Is(err, errNoEndpoint):
		return "", nil, fail(Protocol, "a 2024-11-05 SSE endpoint sends an endpoint event first; check the URL is the stream's", "%s: %w", detail, err)
	case err != nil:
		return "", nil, fmt.Errorf("%s: reading the stream: %w", detail, err)
	}
	stream := httpOf(w.cfg.URL)
	u, err := stream.Parse(strings.TrimSpace(data))
	if err != nil {
		return "", nil, fail(Protocol, "the endpoint event must name a URL", "%s: the endpoint event %q is not a URL: %w", detail, data, err)
	}
	if u.Scheme != stream.Scheme || u.Host != stream.Host {
		return "", nil, fail(Protocol, "the server must name an endpoint of its own origin; mcpscope sends nothing elsewhere",
			"%s: the endpoint event names %s, another origin than %s://%s", detail, u.Redacted(), stream.Scheme, stream.Host)
	}
	return detail + ", endpoint " + u.Path, nil, nil
}

// errNoEndpoint says the stream ended, or ran past bodyShown bytes,
// without an endpoint event.
var errNoEndpoint = fmt.Errorf("no endpoint event before the stream ended or in its first %d bytes", bodyShown)

// endpointEvent reads event-stream lines from body until an event named
// "endpoint" ends, and returns its data; at most bodyShown bytes are read.
func endpointEvent(body io.Reader) (string, error) {
	r := bufio.NewReader(io.LimitReader(body, bodyShown))
	var event string
	var data []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errNoEndpoint
			}
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if event == "endpoint" && len(data) > 0 {
				return strings.Join(data, "\n"), nil
			}
			event, data = "", nil
			continue
		}
		name, at, comment := proto.SplitSSELine([]byte(line))
		switch {
		case comment:
		case string(name) == "event":
			event = line[at:]
		case string(name) == "data":
			data = append(data, line[at:])
		}
	}
}
