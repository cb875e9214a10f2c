package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto/httphead"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// Probing the legacy HTTP+SSE transport (2024-11-05) as the http transport
// does: when the first POST is refused with 400, 404 or 405 and no
// JSON-RPC answer, it opens the event stream with GET and waits for its
// endpoint event, the URL it then posts to.

// fallsBack reports whether the http transport answers a POST's answer
// (status and body) by trying the legacy HTTP+SSE transport: a status
// httphead.LegacyFallbackStatus names, and no JSON-RPC answer.
func fallsBack(status int, body []byte) bool {
	if !httphead.LegacyFallbackStatus(status) {
		return false
	}
	msgs, _, err := jsonrpc.DecodeJSON(body)
	return err != nil || len(msgs) == 0
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
	detail, ch, err := judgeHTTP(http.MethodGet, resp, w.cfg.Origin, true, w.cfg.Authorization != nil)
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
		return "", nil, fail(checklist.Protocol, "a 2024-11-05 SSE endpoint sends an endpoint event first; check the URL is the stream's", "%s: %w", detail, err)
	case err != nil:
		return "", nil, fmt.Errorf("%s: reading the stream: %w", detail, err)
	}
	stream := httpOf(w.cfg.URL)
	u, err := httphead.LegacyEndpoint(&stream, data)
	if err != nil {
		return "", nil, fail(checklist.Protocol, "the endpoint event must name a URL of the stream's own origin; mcpscope sends nothing elsewhere", "%s: %w", detail, err)
	}
	return detail + ", endpoint " + u.Path, nil, nil
}

// errNoEndpoint says the stream ended, or ran past bodyShown bytes,
// without an endpoint event.
var errNoEndpoint = fmt.Errorf("no endpoint event before the stream ended or in its first %d bytes", bodyShown)

// endpointEvent reads the stream in body (at most bodyShown bytes of it)
// up to its first endpoint event with data, and returns that data.
func endpointEvent(body io.Reader) (string, error) {
	rd := sse.NewReader(io.LimitReader(body, bodyShown), sse.Limits{})
	for {
		ev, err := rd.Next()
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return "", errNoEndpoint
		case err != nil:
			return "", err
		case ev.Type == "endpoint" && ev.Dispatch:
			return ev.Data(), nil
		}
	}
}
