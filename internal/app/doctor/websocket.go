package doctor

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/gateway"
)

// probeUpgrade asks for the WebSocket upgrade, offering the subprotocols
// the real transport offers (Config.Subprotocols), and judges the answer.
func (w *walk) probeUpgrade(ctx context.Context, client *http.Client) (string, *challenge, error) {
	req, err := w.newRequest(ctx, http.MethodGet, nil)
	if err != nil {
		return "", nil, err
	}
	var key [16]byte
	_, _ = rand.Read(key[:])
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	secKey := base64.StdEncoding.EncodeToString(key[:])
	req.Header.Set("Sec-WebSocket-Key", secKey)
	if offered := w.cfg.Subprotocols; len(offered) > 0 {
		req.Header.Set("Sec-WebSocket-Protocol", strings.Join(offered, ", "))
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", nil, fmt.Errorf("upgrading %s: %w", w.cfg.URL.Redacted(), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusSwitchingProtocols {
		detail, ch, err := judgeHTTP("GET", resp, w.cfg.Origin, false, w.cfg.Authorization != nil)
		if err != nil || ch != nil {
			return detail, ch, err
		}
		return "", nil, fail(checklist.Connection, "check that the URL is a WebSocket endpoint", "the server answered %s, not 101 Switching Protocols", resp.Status)
	}
	if err := judgeAccept(secKey, resp.Header.Values("Sec-WebSocket-Accept")); err != nil {
		return "", nil, err
	}
	detail, err := judgeSubprotocol(w.cfg.Subprotocols, resp.Header.Get("Sec-WebSocket-Protocol"))
	return detail, nil, err
}

// judgeAccept judges the Sec-WebSocket-Accept of a 101 answering key
// exactly as the real transport (coder/websocket) does: the first value
// must be the key's (RFC 6455 §4.2.2), later ones are not read.
func judgeAccept(key string, got []string) error {
	want := gateway.WebSocketAccept(key)
	if len(got) > 0 && got[0] == want {
		return nil
	}
	received := "none"
	if len(got) > 0 {
		received = termtext.QuoteMax(strings.Join(got, ", "), challengeShown)
	}
	return fail(checklist.Protocol, "the server must answer the upgrade with the Sec-WebSocket-Accept its key asks for (RFC 6455 §4.2.2)",
		"the 101 answer's Sec-WebSocket-Accept is %s, expected %q for the key %q", received, want, key)
}

// judgeSubprotocol judges the subprotocol a server chose among those
// offered: one of them, or none, is right (RFC 6455 §4.2.2); any other,
// and any at all when none was offered, fails the upgrade as the real
// transport's would.
func judgeSubprotocol(offered []string, chosen string) (string, error) {
	words := quoted(offered)
	switch {
	case chosen == "" && len(offered) == 0:
		return "101 Switching Protocols, no subprotocol (none offered)", nil
	case chosen == "":
		return "101 Switching Protocols, no subprotocol chosen (offered " + words + ")", nil
	case slices.Contains(offered, chosen):
		return "101 Switching Protocols, subprotocol " + strconv.Quote(chosen), nil
	case len(offered) == 0:
		return "", fail(checklist.Protocol, "the server must not choose a subprotocol when none is offered", "the server chose the subprotocol %q, though none was offered", chosen)
	}
	return "", fail(checklist.Protocol, "the server must choose the subprotocol "+words+" it was offered, or none", "the server chose the subprotocol %q, not %s", chosen, words)
}

// quoted lists names quoted, joined by "or".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, " or ")
}
