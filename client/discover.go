package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// lateProbe is a server/discover probe that got no answer within its wait:
// it stays pending, uncancelled, while the handshake falls back to
// initialize, because a 2026-07-28 server slower to start than the wait
// answers it first and then refuses the initialize that follows.
type lateProbe struct {
	w       *waiter
	caps    mcp.ClientCapabilities
	timeout *TimeoutError // how long it was waited for
}

// probeOutcome is what the server/discover probe learned.
type probeOutcome struct {
	modern bool       // the server answered as a 2026-07-28 server
	late   *lateProbe // the probe got no answer in time and is still pending
	// legacy is the initialize-era version to offer in the fallback: the
	// one a -32022 answer listed, or "" for the newest.
	legacy string
}

// discover probes the modern era. When not forced and the probe got no
// answer in time, it is returned still pending (settleProbe settles it
// after the fallback to initialize). A -32022 (unsupported version)
// answer is followed: when it lists 2026-07-28 the probe goes again, once;
// when it lists only initialize-era versions, the newest mcpscope speaks
// is the one the fallback offers. An authorization failure, and any other
// refusal of the 2026-07-28 revision (modernRefusal), ends the handshake as
// it is: initialize would fail or go on in the wrong era and hide it.
// When forced, anything but a modern answer is an error.
func (s *Session) discover(ctx context.Context, forced bool) (probeOutcome, error) {
	for retried := false; ; retried = true {
		out, err := s.probe(ctx, forced)
		if err == nil || fatal(ctx, err) || unauthorized(err) || modernRefusal(err) {
			return out, err
		}
		supported, ok := unsupportedVersion(err)
		if !ok {
			if forced {
				return out, s.refuse(fmt.Sprintf("server/discover failed, so the server does not speak %s: %v", mcp.Modern, err))
			}
			return out, nil
		}
		v := newestKnown(supported)
		switch {
		case v == "":
			return out, s.refuse(fmt.Sprintf("server/discover was refused with -32022: the server supports %s, none of which mcpscope speaks",
				termtext.LineMax(strings.Join(supported, ", "), 200)))
		case mcp.IsModernVersion(v) && retried:
			return out, s.refuse(fmt.Sprintf("server/discover was refused twice with -32022, though the server lists %s as supported", v))
		case mcp.IsModernVersion(v):
			continue
		case forced:
			return out, s.refuse(fmt.Sprintf("server/discover was refused with -32022: the server does not speak %s, only %s",
				mcp.Modern, termtext.LineMax(strings.Join(supported, ", "), 200)))
		}
		return probeOutcome{legacy: v}, nil
	}
}

// probe sends server/discover once. Its error is the request's own: the
// caller decides whether it is a reason to fall back.
func (s *Session) probe(ctx context.Context, forced bool) (probeOutcome, error) {
	caps := s.clientCapabilities(mcp.Modern)
	params := mcp.DiscoverParams{Meta: mcp.RequestMeta{
		ProtocolVersion:    mcp.Modern,
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
	raw, err := s.roundTrip(ctx, mcp.MethodDiscover, mustJSON(params), cfg, 1)
	if err != nil {
		var te *TimeoutError
		if !forced && errors.As(err, &te) && cfg.lingering != nil {
			return probeOutcome{late: &lateProbe{w: cfg.lingering, caps: caps, timeout: te}}, nil
		}
		return probeOutcome{}, err
	}
	if s.adoptDiscover(raw, caps) {
		return probeOutcome{modern: true}, nil
	}
	if forced {
		return probeOutcome{}, s.refuse(fmt.Sprintf("the server/discover answer does not list %s as supported", mcp.Modern))
	}
	return probeOutcome{}, nil
}

// modernRefusal reports whether err is a 2026-07-28 server refusing the
// probe for a reason of that revision (a header that disagrees with the
// body, a client capability it requires): the server speaks 2026-07-28,
// so falling back to initialize would hide why it refused.
func modernRefusal(err error) bool {
	var re *RPCError
	return errors.As(err, &re) && (re.Err.Code == mcp.CodeHeaderMismatch || re.Err.Code == mcp.CodeMissingClientCapability)
}

// unsupportedVersion returns the versions a -32022 (unsupported protocol
// version) answer lists as supported, and whether err is such an answer.
func unsupportedVersion(err error) ([]string, bool) {
	var re *RPCError
	if !errors.As(err, &re) || re.Err.Code != mcp.CodeUnsupportedVersion {
		return nil, false
	}
	var data mcp.UnsupportedVersionData
	if json.Unmarshal(re.Err.Data, &data) != nil || len(data.Supported) == 0 {
		return nil, false
	}
	return data.Supported, true
}

// newestKnown returns the newest version of list that mcpscope speaks,
// 2026-07-28 first, or "".
func newestKnown(list []string) string {
	known := append([]string{mcp.Modern}, mcp.LegacyVersions...)
	for _, v := range known {
		for _, l := range list {
			if l == v {
				return v
			}
		}
	}
	return ""
}

// adoptDiscover takes a server/discover result: when it lists 2026-07-28,
// the session is in the modern era and it reports true.
func (s *Session) adoptDiscover(raw json.RawMessage, caps mcp.ClientCapabilities) bool {
	var res mcp.DiscoverResult
	var capsRaw struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(raw, &res) != nil || json.Unmarshal(raw, &capsRaw) != nil || !res.Supports(mcp.Modern) {
		return false
	}
	info, _ := res.ServerInfo()
	s.mu.Lock()
	s.era, s.version = EraModern, mcp.Modern
	s.serverInfo, s.serverCaps, s.instructions = info, capsRaw.Capabilities, res.Instructions
	s.clientCaps = caps
	s.mu.Unlock()
	return true
}

// settleProbe ends a late probe once the fallback to initialize is over
// with initErr: a 2026-07-28 answer that arrived meanwhile wins over a
// failed initialize (such a server refuses initialize after
// server/discover). A probe still unanswered is forgotten, not cancelled:
// a notifications/cancelled for it would be a message about a request of
// no session (before one exists, or outside the one initialize began);
// a late answer to it is ignored like any answer to a request given up
// on. What the transport holds open for it is let go (Traits.Forget).
// When initialize timed out too, the error says how long each waited.
func (s *Session) settleProbe(p *lateProbe, initErr error) error {
	if s.take(p.w) {
		if forget := s.traits.Forget; forget != nil {
			forget(p.w.id)
		}
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
