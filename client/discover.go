package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto"
)

// lateProbe is a server/discover probe that got no answer within its wait:
// it stays pending, uncancelled, while the handshake falls back to
// initialize, because a 2026-07-28 server slower to start than the wait
// answers it first and then refuses the initialize that follows.
type lateProbe struct {
	w       *waiter
	caps    proto.ClientCapabilities
	timeout *TimeoutError // how long it was waited for
}

// discover probes the modern era. It reports whether the server answered
// as a 2026-07-28 server; when not forced and the probe got no answer in
// time, it returns it still pending (settleProbe settles it after the
// fallback to initialize). When forced, anything else is an error.
func (s *Session) discover(ctx context.Context, forced bool) (ok bool, late *lateProbe, err error) {
	caps := s.clientCapabilities(proto.Modern)
	params := proto.DiscoverParams{Meta: proto.RequestMeta{
		ProtocolVersion:    proto.Modern,
		ClientInfo:         &s.opts.ClientInfo,
		ClientCapabilities: &caps,
	}}
	cfg := s.callConfig(nil)
	if !forced {
		// The probe waits no longer than a request may, and no longer than
		// its cap: a legacy server may silently drop requests it gets
		// before initialize, and initialize still has its own wait after.
		cfg.timeout = min(cfg.timeout, discoverTimeoutCap)
		cfg.linger = true
	}
	raw, err := s.roundTrip(ctx, proto.MethodDiscover, mustJSON(params), cfg, 1)
	if err != nil {
		if fatal(ctx, err) {
			return false, nil, err
		}
		if forced {
			return false, nil, s.refuse(fmt.Sprintf("server/discover failed, so the server does not speak %s: %v", proto.Modern, err))
		}
		var te *TimeoutError
		if errors.As(err, &te) && cfg.lingering != nil {
			return false, &lateProbe{w: cfg.lingering, caps: caps, timeout: te}, nil
		}
		return false, nil, nil
	}
	if s.adoptDiscover(raw, caps) {
		return true, nil, nil
	}
	if forced {
		return false, nil, s.refuse(fmt.Sprintf("the server/discover answer does not list %s as supported", proto.Modern))
	}
	return false, nil, nil
}

// adoptDiscover takes a server/discover result: when it lists 2026-07-28,
// the session is in the modern era and it reports true.
func (s *Session) adoptDiscover(raw json.RawMessage, caps proto.ClientCapabilities) bool {
	var res proto.DiscoverResult
	var capsRaw struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(raw, &res) != nil || json.Unmarshal(raw, &capsRaw) != nil || !res.Supports(proto.Modern) {
		return false
	}
	info, _ := res.ServerInfo()
	s.mu.Lock()
	s.era, s.version = EraModern, proto.Modern
	s.serverInfo, s.serverCaps, s.instructions = info, capsRaw.Capabilities, res.Instructions
	s.clientCaps = caps
	s.mu.Unlock()
	return true
}

// settleProbe ends a late probe once the fallback to initialize is over
// with initErr: a 2026-07-28 answer that arrived meanwhile wins over a
// failed initialize (such a server refuses initialize after
// server/discover); a probe still unanswered is cancelled. When
// initialize timed out too, the error says how long each waited.
func (s *Session) settleProbe(p *lateProbe, initErr error) error {
	if s.take(p.w) {
		_ = s.sendCancelled(p.w.id, "the client fell back to initialize")
		var te *TimeoutError
		if errors.As(initErr, &te) {
			// The server was silent for the probe's wait and then for
			// initialize's: say both.
			return fmt.Errorf("the server/discover probe got no answer in %s, then %w", p.timeout.After, initErr)
		}
		return initErr
	}
	out := <-p.w.done // answered meanwhile, or the session ended
	if initErr != nil && out.err == nil && s.adoptDiscover(out.result, p.caps) {
		return nil
	}
	return initErr
}
